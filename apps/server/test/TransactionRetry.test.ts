// The Transactions port over each database: a transaction the database gives up on for another's sake (SQLSTATE
// 40P01 deadlock_detected, 40001 serialization_failure) runs again, whole, a bounded number of times; then it is
// `StorageUnavailable` (503), never a defect (500). Nothing else runs again; a body never acts outside the database
// (a call outside it, inside a transaction, is refused). The conflicts are raised by the database itself with their
// SQLSTATE: PGlite has one connection and cannot deadlock, and on Postgres a raised one takes the same driver path as
// a detected one.
import { StorageUnavailable, Transactions } from "@fatura/application"
import { Database, SqlTransactions } from "@fatura/persistence"
import { Effect, Exit, ManagedRuntime, Option } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testDatabases } from "./support/TestDatabases.js"

describe.each(testDatabases)("transactions that lose a conflict on $name", (database) => {
  let runtime: ManagedRuntime.ManagedRuntime<Transactions | SqlClient.SqlClient, unknown>
  let release: () => Promise<void>

  beforeAll(async () => {
    const acquired = await database.acquire()
    release = acquired.release
    runtime = ManagedRuntime.make(Database.layer(acquired.config))
    await runtime.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE runs (test text NOT NULL, run int NOT NULL)`
      })
    )
  })
  afterAll(async () => {
    await runtime.dispose()
    await release()
  })

  /** A statement the database fails with `sqlState`, as it fails the loser of a deadlock or a serialization check. */
  const lose = (sqlState: "40P01" | "40001") =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`DO $$ BEGIN RAISE EXCEPTION 'lost a conflict' USING ERRCODE = '${sqlState}'; END $$`)
    })

  const record = (test: string, run: number) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO runs (test, run) VALUES (${test}, ${run})`
    })

  const recorded = (test: string) =>
    runtime.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ run: number }>`SELECT run FROM runs WHERE test = ${test} ORDER BY run`
        return rows.map((row) => Number(row.run))
      })
    )

  /** Runs `body` in a transaction; what it came to: its value, its failure, or "defect". */
  const inTransaction = async <A, E>(body: Effect.Effect<A, E, SqlClient.SqlClient | Transactions>) => {
    const exit = await runtime.runPromiseExit(
      Effect.gen(function* () {
        return yield* (yield* Transactions).withTransaction(body)
      })
    )
    if (Exit.isSuccess(exit)) return exit.value
    return Exit.hasDies(exit) ? "defect" : Option.getOrUndefined(Exit.findErrorOption(exit))
  }

  it.each(["40P01", "40001"] as const)(
    "runs a transaction that lost a conflict (%s) again, whole",
    async (sqlState) => {
      let runs = 0
      const outcome = await inTransaction(
        Effect.gen(function* () {
          runs += 1
          yield* record(`again ${sqlState}`, runs)
          if (runs === 1) yield* lose(sqlState)
          return "committed"
        })
      )
      expect(outcome).toBe("committed")
      expect(runs).toBe(2)
      // The first run's insert went with its rollback.
      expect(await recorded(`again ${sqlState}`)).toEqual([2])
    }
  )

  it("gives up after a bounded number of runs: StorageUnavailable, not a defect, and nothing committed", async () => {
    let runs = 0
    const outcome = await inTransaction(
      Effect.gen(function* () {
        runs += 1
        yield* record("bounded", runs)
        yield* lose("40P01")
      })
    )
    expect(runs).toBe(SqlTransactions.retries + 1)
    expect(outcome).toBeInstanceOf(StorageUnavailable)
    expect(await recorded("bounded")).toEqual([])
  })

  it("runs the whole outermost transaction again when a nested one lost, even if the body answered anyway", async () => {
    // What the idempotency middleware does: its transaction holds the request's, whose failure becomes a response.
    let runs = 0
    const outcome = await inTransaction(
      Effect.gen(function* () {
        const transactions = yield* Transactions
        runs += 1
        yield* record("nested", runs)
        const inner = yield* transactions
          .withTransaction(
            Effect.gen(function* () {
              yield* record("nested", 10 + runs)
              if (runs === 1) yield* lose("40P01")
              return "inner committed"
            })
          )
          .pipe(Effect.catchTag("StorageUnavailable", () => Effect.succeed("answered with a 503")))
        return inner
      })
    )
    expect(outcome).toBe("inner committed")
    expect(runs).toBe(2)
    expect(await recorded("nested")).toEqual([2, 12])
  })

  it("refuses a call outside the database inside a transaction: it is not made, and nothing commits", async () => {
    let runs = 0
    let charges = 0
    const outcome = await inTransaction(
      Effect.gen(function* () {
        runs += 1
        yield* record("called inside", runs)
        yield* (yield* Transactions).external(Effect.sync(() => charges++))
      })
    )
    expect([runs, charges]).toEqual([1, 0])
    expect(outcome).toBe("defect")
    expect(await recorded("called inside")).toEqual([])
  })

  it("runs nothing else again: a constraint violation is a defect after one run, a failure of the body is its own", async () => {
    let runs = 0
    const violation = await inTransaction(
      Effect.gen(function* () {
        runs += 1
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO runs (test, run) VALUES (NULL, 1)`
      })
    )
    expect(runs).toBe(1)
    expect(violation).toBe("defect")

    runs = 0
    const refused = await inTransaction(
      Effect.gen(function* () {
        runs += 1
        return yield* Effect.fail("refused" as const)
      })
    )
    expect(runs).toBe(1)
    expect(refused).toBe("refused")
  })
})
