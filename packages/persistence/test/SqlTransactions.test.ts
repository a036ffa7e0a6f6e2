// The Transactions port over SQL, as every use case that writes relies on it: what a transaction writes commits
// together or not at all; a nested transaction that fails takes only its own writes back; a transaction the database
// gave up on for another's sake (deadlock 40P01, serialization failure 40001) runs again, whole, a bounded number of
// times, unless it acted outside the database; nothing else runs again.
import { expect } from "@effect/vitest"
import { CompanyRepository, InvoiceRepository, StorageUnavailable, Transactions } from "@fatura/application"
import type { Company, Invoice } from "@fatura/domain"
import { Cause, Deferred, Effect, Exit, Fiber, Option } from "effect"
import { SqlClient } from "effect/sql"
import { SqlTransactions } from "../src/index.js"
import { aCompany, anInvoice } from "./support/Fixtures.js"
import { onEachDatabase } from "./support/TestDatabases.js"

let labels = 0
/** A name of the case's own for the companies it writes, to count them by. */
const freshLabel = Effect.sync(() => `Loja Transacional ${++labels}`)

const companiesNamed = (label: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`SELECT count(*) AS n FROM companies WHERE corporate_reason = ${label}`
    return Number(rows[0]!.n)
  })

/**
 * A statement the database fails with `sqlState`, as it fails the loser of a deadlock or of a serialization check.
 * PGlite has one connection and cannot deadlock; on Postgres a raised conflict takes the driver's path of a real one.
 */
const lose = (sqlState: "40P01" | "40001") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`DO $$ BEGIN RAISE EXCEPTION 'lost a conflict' USING ERRCODE = '${sqlState}'; END $$`)
  })

const inTransaction = <A, E, R>(body: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const transactions = yield* Transactions
    return yield* transactions.withTransaction(body)
  })

onEachDatabase("SqlTransactions", (it, database) => {
  it.effect("commits what a transaction wrote, all of it", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const label = yield* freshLabel
      const invoice = yield* inTransaction(
        Effect.gen(function* () {
          const company = yield* aCompany({ corporateReason: label })
          return yield* anInvoice(company)
        })
      )
      expect(yield* companiesNamed(label)).toBe(1)
      expect(Option.isSome(yield* invoices.findById(invoice.id))).toBe(true)
    })
  )

  it.effect("leaves nothing of a transaction whose body failed, and fails with the body's own failure", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const label = yield* freshLabel
      let written: { readonly invoice: Invoice.InvoiceId; readonly keyHash: string } | undefined
      const failure = yield* inTransaction(
        Effect.gen(function* () {
          const company = yield* aCompany({ corporateReason: label })
          const invoice = yield* anInvoice(company)
          const keyHash = `hash-${label}`
          yield* companies.insertKey({
            companyId: company.id,
            kind: "secret",
            mode: "test",
            prefix: "sk_test_rollback",
            hash: keyHash,
            publicToken: null,
            now: invoice.createdAt
          })
          written = { invoice: invoice.id, keyHash }
          return yield* Effect.fail("refused" as const)
        })
      ).pipe(Effect.flip)

      expect(failure).toBe("refused")
      expect(yield* companiesNamed(label)).toBe(0)
      expect(Option.isNone(yield* invoices.findById(written!.invoice))).toBe(true)
      expect(Option.isNone(yield* companies.findKeyByHash(written!.keyHash))).toBe(true)
    })
  )

  it.effect("leaves nothing of a transaction whose body died", () =>
    Effect.gen(function* () {
      const label = yield* freshLabel
      const exit = yield* Effect.exit(
        inTransaction(
          Effect.gen(function* () {
            yield* aCompany({ corporateReason: label })
            return yield* Effect.die(new Error("a bug"))
          })
        )
      )
      expect(Exit.hasDies(exit)).toBe(true)
      expect(yield* companiesNamed(label)).toBe(0)
    })
  )

  it.effect("takes back only a failed nested transaction's writes; the enclosing one commits its own", () =>
    Effect.gen(function* () {
      const label = yield* freshLabel
      const inner = `${label} interna`
      yield* inTransaction(
        Effect.gen(function* () {
          yield* aCompany({ corporateReason: label })
          const failure = yield* inTransaction(
            Effect.gen(function* () {
              yield* aCompany({ corporateReason: inner })
              return yield* Effect.fail("inner refused" as const)
            })
          ).pipe(Effect.flip)
          expect(failure).toBe("inner refused")
          expect(yield* companiesNamed(inner)).toBe(0)
        })
      )
      expect([yield* companiesNamed(label), yield* companiesNamed(inner)]).toEqual([1, 0])
    })
  )

  it.effect.each(["40P01", "40001"] as const)("runs a transaction that lost a conflict (%s) again, whole", (state) =>
    Effect.gen(function* () {
      const label = yield* freshLabel
      let runs = 0
      const outcome = yield* inTransaction(
        Effect.gen(function* () {
          runs += 1
          yield* aCompany({ corporateReason: label })
          if (runs === 1) yield* lose(state)
          return "committed"
        })
      )
      expect([outcome, runs]).toEqual(["committed", 2])
      // The first run's company went with its rollback.
      expect(yield* companiesNamed(label)).toBe(1)
    })
  )

  it.effect("runs the whole outermost transaction again when a nested one lost, even if it answered anyway", () =>
    Effect.gen(function* () {
      const label = yield* freshLabel
      let runs = 0
      const outcome = yield* inTransaction(
        Effect.gen(function* () {
          runs += 1
          yield* aCompany({ corporateReason: label })
          return yield* inTransaction(
            Effect.gen(function* () {
              yield* aCompany({ corporateReason: label })
              if (runs === 1) yield* lose("40P01")
              return "inner committed"
            })
          ).pipe(Effect.catchTag("StorageUnavailable", () => Effect.succeed("answered with a failure")))
        })
      )
      expect([outcome, runs]).toEqual(["inner committed", 2])
      expect(yield* companiesNamed(label)).toBe(2)
    })
  )

  it.effect("gives up after a bounded number of runs: StorageUnavailable, and nothing committed", () =>
    Effect.gen(function* () {
      const label = yield* freshLabel
      let runs = 0
      const failure = yield* inTransaction(
        Effect.gen(function* () {
          runs += 1
          yield* aCompany({ corporateReason: label })
          yield* lose("40001")
        })
      ).pipe(Effect.flip)
      expect(failure).toBeInstanceOf(StorageUnavailable)
      expect(runs).toBe(SqlTransactions.retries + 1)
      expect(yield* companiesNamed(label)).toBe(0)
    })
  )

  it.effect("refuses a call outside the database inside a transaction: it is not made, and nothing commits", () =>
    Effect.gen(function* () {
      const transactions = yield* Transactions
      const label = "called outside inside"
      let calls = 0
      const exit = yield* Effect.exit(
        inTransaction(
          Effect.gen(function* () {
            yield* aCompany({ corporateReason: label })
            yield* transactions.external(Effect.sync(() => calls++))
          })
        )
      )
      expect(Exit.hasDies(exit)).toBe(true)
      expect(calls).toBe(0)
      expect(yield* companiesNamed(label)).toBe(0)
      yield* transactions.external(Effect.sync(() => calls++))
      expect(calls).toBe(1)
    })
  )

  it.effect("runs nothing else again: a statement the database refuses is a defect after one run", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      let runs = 0
      const exit = yield* Effect.exit(
        inTransaction(
          Effect.gen(function* () {
            runs += 1
            yield* sql`INSERT INTO companies (cnpj) VALUES (NULL)`
          })
        )
      )
      expect(Exit.hasDies(exit)).toBe(true)
      expect(runs).toBe(1)
    })
  )

  if (database.concurrent) {
    it.effect("resolves a real deadlock: the transaction chosen to lose runs again, and both commit", () =>
      Effect.gen(function* () {
        const invoices = yield* InvoiceRepository
        const companies = yield* CompanyRepository
        const first = yield* aCompany()
        const second = yield* aCompany()
        const firstLocked = yield* Deferred.make<void>()
        const secondLocked = yield* Deferred.make<void>()
        let runs = 0

        // Each locks one company, waits until the other has locked the other one, then asks for it: a cycle only
        // the database can break, by failing one of them.
        const crossing = (
          mine: Company.Company,
          theirs: Company.Company,
          locked: Deferred.Deferred<void>,
          theirsLocked: Deferred.Deferred<void>
        ) =>
          inTransaction(
            Effect.gen(function* () {
              runs += 1
              yield* invoices.lockCompanyLedger(mine.id)
              yield* Deferred.succeed(locked, undefined)
              yield* Deferred.await(theirsLocked)
              yield* invoices.lockCompanyLedger(theirs.id)
              yield* companies.setBlock(theirs.id, "sake", true, theirs.createdAt)
            })
          )

        const fibers = [
          yield* Effect.forkChild(crossing(first, second, firstLocked, secondLocked)),
          yield* Effect.forkChild(crossing(second, first, secondLocked, firstLocked))
        ]
        const exits = yield* Effect.forEach(fibers, Fiber.await)
        expect(exits.map((exit) => (Exit.isSuccess(exit) ? "committed" : Cause.pretty(exit.cause)))).toEqual([
          "committed",
          "committed"
        ])
        // One of them ran again at least once; on a loaded machine a run again may meet the other once more.
        expect(runs).toBeGreaterThanOrEqual(3)
        for (const company of [first, second]) {
          expect(Option.getOrThrow(yield* companies.findById(company.id)).blocks.sake).toBe(true)
        }
      }).pipe(Effect.timeout("20 seconds"))
    )
  }
})
