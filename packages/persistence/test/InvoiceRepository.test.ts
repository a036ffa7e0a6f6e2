// The invoice ports' contracts (InvoiceRepository, ClientRepository, CardChargeRepository, PixReturnRepository) on
// every implementation: the in-memory one, PGlite, and Postgres when it is given; and what only the SQL schema holds.
import { expect } from "@effect/vitest"
import { InvoiceRepository } from "@fatura/application"
import { Effect, Exit, Option } from "effect"
import { SqlClient } from "effect/sql"
import { cardChargeRepositoryContract } from "./contracts/CardChargeRepositoryContract.js"
import { clientRepositoryContract } from "./contracts/ClientRepositoryContract.js"
import { invoiceLocksContract } from "./contracts/InvoiceLocksContract.js"
import { invoiceMovesContract } from "./contracts/InvoiceMovesContract.js"
import { invoiceReadsContract } from "./contracts/InvoiceReadsContract.js"
import { pixReturnRepositoryContract } from "./contracts/PixReturnRepositoryContract.js"
import { aCompany, paidInvoice } from "./support/Fixtures.js"
import { type Contract, inMemory, onEachDatabase } from "./support/TestDatabases.js"

const contracts: ReadonlyArray<readonly [string, Contract]> = [
  ["InvoiceRepository reads", invoiceReadsContract],
  ["InvoiceRepository moves", invoiceMovesContract],
  ["InvoiceRepository locks", invoiceLocksContract],
  ["ClientRepository", clientRepositoryContract],
  ["CardChargeRepository", cardChargeRepositoryContract],
  ["PixReturnRepository", pixReturnRepositoryContract]
]

for (const [name, contract] of contracts) {
  inMemory(name, contract)
  onEachDatabase(name, contract)
}

onEachDatabase("The ledger in SQL", (it) => {
  it.effect("never changes or removes a ledger entry", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const invoices = yield* InvoiceRepository
      const company = yield* aCompany()
      const invoice = yield* paidInvoice(company)

      const changed = yield* Effect.exit(sql`UPDATE ledger_entries SET amount = 1 WHERE invoice_id = ${invoice.id}`)
      const removed = yield* Effect.exit(sql`DELETE FROM ledger_entries WHERE invoice_id = ${invoice.id}`)
      expect([Exit.isFailure(changed), Exit.isFailure(removed)]).toEqual([true, true])
      expect(Option.getOrThrow(yield* invoices.findById(invoice.id)).movements).toEqual(invoice.movements)
    })
  )
})
