// The BankPayoutRepository port in memory: each withdrawal's attempts by reference, a reference from a sequence.
import { Effect, Layer, Option } from "effect"
import { type BankPayout, BankPayoutRepository, type PayoutForm } from "../banks/BankPayoutRepository.js"
import type { BankPayoutRow } from "./InMemoryBankTables.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { put, type Tables } from "./InMemoryTables.js"

const toPayout = ({ createdAt: _, ...payout }: BankPayoutRow): BankPayout => payout

const latestOf = (tables: Tables, withdrawalId: string) =>
  Option.fromNullishOr(
    [...tables.bankPayouts.values()]
      .filter((row) => row.withdrawalId === withdrawalId)
      .sort((a, b) => b.attempt - a.attempt)[0]
  )

export const layer = Layer.effect(
  BankPayoutRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    /** Attempt `attempt` of a withdrawal, queued under the next reference; nothing when it exists already. */
    const insert = (
      payout: Omit<
        BankPayout,
        "reference" | "attempt" | "status" | "remessa" | "occurrences" | "endToEndId" | "paidOn" | "updatedAt"
      >,
      attempt: number,
      at: BankPayoutRow["createdAt"]
    ) =>
      Effect.gen(function* () {
        yield* database.lock(`bank payouts of ${payout.withdrawalId}`)
        const exists = yield* database.read((tables) =>
          [...tables.bankPayouts.values()].some(
            (row) => row.withdrawalId === payout.withdrawalId && row.attempt === attempt
          )
        )
        if (exists) return
        if (!(yield* database.read((tables) => tables.withdrawals.has(payout.withdrawalId)))) {
          return yield* violated("bank_payouts_withdrawal_id_fkey", `no withdrawal ${payout.withdrawalId}`)
        }
        const reference = `WD${String(yield* database.nextval("bankPayoutReferences")).padStart(18, "0")}`
        yield* database.write(
          put("bankPayouts", reference, {
            ...payout,
            reference,
            attempt,
            status: "queued",
            remessa: null,
            occurrences: [],
            endToEndId: null,
            paidOn: null,
            createdAt: at,
            updatedAt: at
          })
        )
      })

    const change = (matches: (row: BankPayoutRow) => boolean, next: (row: BankPayoutRow) => BankPayoutRow) =>
      database.statement(
        Effect.gen(function* () {
          const rows = yield* database.read((tables) => [...tables.bankPayouts.values()].filter(matches))
          for (const row of rows) {
            yield* database.lock(`bank payout ${row.reference}`)
            yield* database.write(put("bankPayouts", row.reference, next(row)))
          }
          return rows.length
        })
      )

    return BankPayoutRepository.of({
      enqueue: (payout, at) =>
        database.statement(
          Effect.gen(function* () {
            const existing = yield* database.read((tables) => latestOf(tables, payout.withdrawalId))
            if (Option.isSome(existing)) return toPayout(existing.value)
            yield* insert(payout, 1, at)
            return toPayout(Option.getOrThrow(yield* database.read((tables) => latestOf(tables, payout.withdrawalId))))
          })
        ),

      latest: (withdrawalId) => database.read((tables) => Option.map(latestOf(tables, withdrawalId), toPayout)),

      queued: (limit) =>
        database.read((tables) =>
          [...tables.bankPayouts.values()]
            .filter((row) => row.status === "queued" && row.remessa === null)
            .sort((a, b) =>
              a.createdAt === b.createdAt ? a.reference.localeCompare(b.reference) : a.createdAt < b.createdAt ? -1 : 1
            )
            .slice(0, limit)
            .map(toPayout)
        ),

      assign: (references, remessa, at) =>
        Effect.asVoid(
          change(
            (row) => references.includes(row.reference),
            (row) => ({ ...row, remessa, updatedAt: at })
          )
        ),

      release: (remessa, at) =>
        change(
          (row) => row.remessa === remessa && row.status === "queued",
          (row) => ({ ...row, remessa: null, updatedAt: at })
        ),

      findByReference: (reference) =>
        database.read((tables) => Option.map(Option.fromNullishOr(tables.bankPayouts.get(reference)), toPayout)),

      settle: (reference, settled, at) =>
        Effect.asVoid(
          change(
            (row) => row.reference === reference,
            (row) => ({
              ...row,
              status: settled.status,
              occurrences: settled.occurrences,
              endToEndId: settled.endToEndId ?? row.endToEndId,
              paidOn: settled.paidOn ?? row.paidOn,
              updatedAt: at
            })
          )
        ),

      retry: (withdrawalId, form: PayoutForm, at) =>
        database.statement(
          Effect.gen(function* () {
            const previous = Option.getOrThrow(yield* database.read((tables) => latestOf(tables, withdrawalId)))
            yield* insert(
              { withdrawalId, form, amount: previous.amount, destination: previous.destination },
              previous.attempt + 1,
              at
            )
            return toPayout(Option.getOrThrow(yield* database.read((tables) => latestOf(tables, withdrawalId))))
          })
        )
    })
  })
)
