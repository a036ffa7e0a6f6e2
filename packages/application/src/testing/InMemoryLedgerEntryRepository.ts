// The LedgerEntryRepository port in memory: the entries each invoice's and each withdrawal's row holds, with what they
// belong to.

import type { Invoice } from "@fatura/domain"
import { Effect, Layer } from "effect"
import { type BalanceOperation, LedgerEntryRepository } from "../balances/LedgerEntryRepository.js"
import { InMemoryDatabase } from "./InMemoryDatabase.js"
import type { Tables } from "./InMemoryTables.js"

const operationOf = (
  movement: Invoice.Movement,
  owner: Pick<BalanceOperation, "invoiceId" | "withdrawalId">
): BalanceOperation => ({
  id: movement.id,
  type: movement.type,
  direction: movement.direction,
  amount: movement.amount,
  balance: movement.balance,
  bucket: movement.bucket,
  ...owner,
  createdAt: movement.createdAt
})

const entriesOf = (tables: Tables, companyId: number, mode: string): ReadonlyArray<BalanceOperation> => [
  ...[...tables.invoices.values()]
    .filter((invoice) => invoice.companyId === companyId && invoice.mode === mode)
    .flatMap((invoice) =>
      invoice.movements.map((movement) => operationOf(movement, { invoiceId: invoice.secureId, withdrawalId: null }))
    ),
  ...[...tables.withdrawals.values()]
    .filter((withdrawal) => withdrawal.companyId === companyId && withdrawal.mode === mode)
    .flatMap((withdrawal) =>
      withdrawal.movements.map((movement) => operationOf(movement, { invoiceId: null, withdrawalId: withdrawal.id }))
    )
]

export const layer = Layer.effect(
  LedgerEntryRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    return LedgerEntryRepository.of({
      operations: (filter) =>
        database.read((tables) =>
          entriesOf(tables, filter.companyId, filter.mode)
            .filter(
              (entry) =>
                (filter.beforeId === null || entry.id < filter.beforeId) &&
                (filter.createdGte === null || entry.createdAt >= filter.createdGte) &&
                (filter.createdLte === null || entry.createdAt <= filter.createdLte) &&
                (filter.balance === null || entry.balance === filter.balance) &&
                (filter.type === null || entry.type === filter.type)
            )
            .sort((a, b) => b.id - a.id)
            .slice(0, filter.limit + 1)
        ),

      hasOperation: (companyId, mode, id) =>
        database.read((tables) => entriesOf(tables, companyId, mode).some((entry) => entry.id === id))
    })
  })
)
