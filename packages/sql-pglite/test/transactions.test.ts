// The single PGlite connection under concurrent fibers: transactions, savepoints, interruption, reserve.
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { PgliteClient } from "../src/index.js"

const names = (rows: ReadonlyArray<{ readonly name: string }>) => rows.map((row) => row.name)

describe("PgliteClient transactions", () => {
  // Live clock: the waiting test sleeps to give a blocked statement the chance to (wrongly) run.
  it.layer(PgliteClient.layer({}), { excludeTestServices: true })((it) => {
    it.effect("keeps concurrent read-modify-write transactions isolated", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)`
        yield* sql`INSERT INTO counter VALUES (1, 0)`
        const increment = sql.withTransaction(
          Effect.gen(function* () {
            const [row] = yield* sql<{ n: number }>`SELECT n FROM counter WHERE id = 1`
            yield* Effect.yieldNow
            yield* sql`UPDATE counter SET n = ${row!.n + 1} WHERE id = 1`
          })
        )
        const worker = Effect.forEach(Array.from({ length: 50 }), () => increment, { discard: true })
        yield* Effect.all([worker, worker], { concurrency: "unbounded", discard: true })
        expect(yield* sql`SELECT n FROM counter`).toEqual([{ n: 100 }])
      })
    )

    it.effect("rolls back a failing transaction", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE rolled (name text)`
        const error = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO rolled VALUES ('lost')`
              return yield* Effect.fail("boom" as const)
            })
          )
          .pipe(Effect.flip)
        expect(error).toBe("boom")
        expect(yield* sql`SELECT * FROM rolled`).toEqual([])
      })
    )

    it.effect("fails the commit of a transaction a failed statement aborted, keeping none of its rows", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE aborted (name text)`
        const error = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO aborted VALUES (${"lost"})`
              // The failure is swallowed here, but PostgreSQL has aborted the transaction: COMMIT answers ROLLBACK.
              yield* Effect.ignore(sql`SELECT ${"not a number"}::int`)
            })
          )
          .pipe(Effect.flip)
        expect(error.message).toContain("COMMIT rolled back an aborted transaction")
        expect(yield* sql`SELECT * FROM aborted`).toEqual([])
      })
    )

    it.effect("keeps the outer work when a nested transaction fails", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE nested (name text UNIQUE)`
        yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`INSERT INTO nested VALUES ('outer')`
            yield* sql
              .withTransaction(
                Effect.gen(function* () {
                  yield* sql`INSERT INTO nested VALUES ('inner')`
                  return yield* Effect.fail("inner failed")
                })
              )
              .pipe(Effect.ignore)
            // A failed statement aborts the whole Postgres transaction unless its savepoint is rolled back.
            const duplicate = yield* sql.withTransaction(sql`INSERT INTO nested VALUES ('outer')`).pipe(Effect.flip)
            expect(duplicate.reason._tag).toBe("UniqueViolation")
            yield* sql`INSERT INTO nested VALUES ('after')`
          })
        )
        expect(names(yield* sql<{ name: string }>`SELECT name FROM nested ORDER BY name`)).toEqual(["after", "outer"])
      })
    )

    it.effect("makes statements outside a transaction wait for it, unaware of its rows", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE pending (name text)`
        const inserted = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const transaction = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO pending VALUES ('uncommitted')`
              yield* Deferred.succeed(inserted, undefined)
              yield* Deferred.await(release)
              return yield* Effect.fail("abandoned" as const)
            })
          )
          .pipe(Effect.flip, Effect.forkChild)
        yield* Deferred.await(inserted)

        const reader = yield* sql<{ count: bigint }>`SELECT count(*) AS count FROM pending`.pipe(Effect.forkChild)
        const writer = yield* sql`INSERT INTO pending VALUES ('outside')`.pipe(Effect.forkChild)
        yield* Effect.sleep("100 millis")
        expect(reader.pollUnsafe()).toBeUndefined()
        expect(writer.pollUnsafe()).toBeUndefined()

        yield* Deferred.succeed(release, undefined)
        expect(yield* Fiber.join(transaction)).toBe("abandoned")
        expect(yield* Fiber.join(reader)).toEqual([{ count: 0n }])
        yield* Fiber.join(writer)
        expect(names(yield* sql<{ name: string }>`SELECT name FROM pending`)).toEqual(["outside"])
      })
    )

    it.effect("rolls back and frees the connection when a transaction is interrupted", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE interrupted (name text)`
        const started = yield* Deferred.make<void>()
        const fiber = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO interrupted VALUES ('lost')`
              yield* Deferred.succeed(started, undefined)
              // Interrupted while PGlite is busy: the statement finishes before the rollback runs.
              yield* sql`SELECT pg_sleep(0.2)`
              return yield* Effect.never
            })
          )
          .pipe(Effect.forkChild)
        yield* Deferred.await(started)
        yield* Fiber.interrupt(fiber)

        expect(yield* sql`SELECT * FROM interrupted`).toEqual([])
        yield* sql.withTransaction(sql`INSERT INTO interrupted VALUES ('kept')`)
        // Had the interrupted transaction stayed open, this ROLLBACK would discard 'kept'.
        yield* sql`ROLLBACK`
        expect(names(yield* sql<{ name: string }>`SELECT name FROM interrupted`)).toEqual(["kept"])
      })
    )

    it.effect("holds the connection for a reserved scope", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const connection = yield* sql.reserve
        yield* connection.executeRaw("SET application_name = 'reserved'", [])
        const outside = yield* sql<{ name: string }>`SELECT current_setting('application_name') AS name`.pipe(
          Effect.forkChild
        )
        yield* Effect.sleep("50 millis")
        expect(outside.pollUnsafe()).toBeUndefined()
        const [row] = yield* connection.execute("SELECT 1 AS one", [], undefined)
        expect(row).toEqual({ one: 1 })
      })
    )
  })
})
