// The WithdrawalRepository port in memory: withdrawals with the ledger entries they wrote, the row lock a cancel and a
// settlement take, and the sweep's claims, which skip what another transaction holds as the SQL adapter's do.
import type { Withdrawal } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import { WithdrawalRepository } from "../withdrawals/WithdrawalRepository.js"
import { InMemoryDatabase } from "./InMemoryDatabase.js"
import { make as invoiceRows } from "./InMemoryInvoiceRows.js"
import { put, type WithdrawalRow } from "./InMemoryTables.js"

const withdrawalLock = (id: string) => `withdrawals ${id}`

const toWithdrawal = ({ movements: _, nextCheckAt: __, ...withdrawal }: WithdrawalRow): Withdrawal.Withdrawal =>
  withdrawal

/** Newest first: by creation time, then id. */
const newestFirst = (a: WithdrawalRow, b: WithdrawalRow) =>
  a.createdAt === b.createdAt ? (a.id === b.id ? 0 : a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1

export const layer = Layer.effect(
  WithdrawalRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase
    const { ledgerEntries } = invoiceRows(database)
    const row = (id: string) => database.read((tables) => tables.withdrawals.get(id))

    return WithdrawalRepository.of({
      insert: (withdrawal, movements) =>
        database.statement(
          Effect.gen(function* () {
            const stored = yield* ledgerEntries(movements, withdrawal.createdAt)
            yield* database.write(
              put("withdrawals", withdrawal.id, { ...withdrawal, movements: stored, nextCheckAt: null })
            )
          })
        ),

      find: (companyId, mode, id) =>
        Effect.map(row(id), (found) =>
          Option.map(
            Option.filter(Option.fromNullishOr(found), (w) => w.companyId === companyId && w.mode === mode),
            toWithdrawal
          )
        ),

      list: (filter) =>
        database.read((tables) => {
          const cursor = filter.afterId === null ? undefined : tables.withdrawals.get(filter.afterId)
          return [...tables.withdrawals.values()]
            .filter(
              (w) =>
                w.companyId === filter.companyId &&
                w.mode === filter.mode &&
                (filter.status === null || w.status === filter.status) &&
                (cursor === undefined || newestFirst(cursor, w) < 0)
            )
            .sort(newestFirst)
            .slice(0, filter.limit + 1)
            .map(toWithdrawal)
        }),

      lock: (id) =>
        database.statement(
          Effect.gen(function* () {
            if ((yield* row(id)) === undefined) return Option.none()
            yield* database.lock(withdrawalLock(id))
            return Option.map(Option.fromNullishOr(yield* row(id)), toWithdrawal)
          })
        ),

      lockPending: (limit) =>
        database.statement(
          Effect.gen(function* () {
            const pending = yield* database.read((tables) =>
              [...tables.withdrawals.values()].filter((w) => w.status === "pending").sort((a, b) => -newestFirst(a, b))
            )
            const locked: Array<Withdrawal.Withdrawal> = []
            for (const withdrawal of pending) {
              if (locked.length === limit) break
              if (!(yield* database.tryLock(withdrawalLock(withdrawal.id)))) continue
              // Read again under the lock: a cancel that held it may have moved it.
              const current = yield* row(withdrawal.id)
              if (current?.status === "pending") locked.push(toWithdrawal(current))
            }
            return locked
          })
        ),

      claimDue: (now, leaseUntil, limit) =>
        database.statement(
          Effect.gen(function* () {
            const due = yield* database.read((tables) =>
              [...tables.withdrawals.values()]
                .filter((w) => w.nextCheckAt !== null && w.nextCheckAt <= now)
                .sort((a, b) => (a.nextCheckAt! < b.nextCheckAt! ? -1 : 1))
            )
            const claimed: Array<Withdrawal.Withdrawal> = []
            for (const withdrawal of due) {
              if (claimed.length === limit) break
              if (!(yield* database.tryLock(withdrawalLock(withdrawal.id)))) continue
              const current = (yield* row(withdrawal.id))!
              yield* database.write(put("withdrawals", current.id, { ...current, nextCheckAt: leaseUntil }))
              claimed.push(toWithdrawal(current))
            }
            return claimed
          })
        ),

      apply: (withdrawal, change) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(withdrawalLock(withdrawal.id))
            const current = (yield* row(withdrawal.id))!
            const stored = yield* ledgerEntries(change.movements, change.at)
            const next: WithdrawalRow = {
              ...current,
              status: change.status,
              updatedAt: change.at,
              sentAt: change.sentAt ?? current.sentAt,
              rail: change.rail ?? current.rail,
              endToEndId: change.endToEndId ?? current.endToEndId,
              paidAt: change.paidAt ?? current.paidAt,
              failureReason: change.failureReason ?? current.failureReason,
              movements: [...current.movements, ...stored],
              nextCheckAt: change.nextCheckAt
            }
            yield* database.write(put("withdrawals", current.id, next))
            return toWithdrawal(next)
          })
        )
    })
  })
)
