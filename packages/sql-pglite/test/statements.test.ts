// Statements with parameters are prepared once under a name and then only bound and run (PGlite would parse and plan
// them on every run), within a bound, and stay correct when a table changes under them or a run fails.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { PgliteClient } from "../src/index.js"

/** The statements the session holds prepared under a name, as PostgreSQL lists them. */
const preparedTexts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`
  return rows.map((row) => row.statement)
})

describe("prepared statements", () => {
  it.layer(PgliteClient.layer({ preparedStatements: 2 }))("with room for two", (it) => {
    it.effect("prepares a statement with parameters once, however often it runs", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        for (const n of [1, 2, 3]) {
          const [row] = yield* sql<{ next: number }>`SELECT ${n}::int + 1 AS next`
          expect(row?.next).toBe(n + 1)
        }
        const prepared = yield* preparedTexts
        expect(prepared.filter((text) => text.includes("+ 1 AS next"))).toEqual(["SELECT $1::int + 1 AS next"])
      })
    )

    it.effect("keeps no statement without parameters", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`SELECT 'no parameters' AS plain`
        expect((yield* preparedTexts).some((text) => text.includes("no parameters"))).toBe(false)
      })
    )

    it.effect("closes the least recently used statement beyond its bound", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`SELECT ${1}::int AS a`
        yield* sql`SELECT ${1}::int AS b`
        yield* sql`SELECT ${2}::int AS a`
        yield* sql`SELECT ${1}::int AS c`
        const prepared = (yield* preparedTexts).filter((text) => text.startsWith("SELECT $1::int AS"))
        expect(prepared.sort()).toEqual(["SELECT $1::int AS a", "SELECT $1::int AS c"])
      })
    )
  })

  it.layer(PgliteClient.layer({}))("correctness", (it) => {
    it.effect("prepares again a statement whose table changed under it", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE changing (id int PRIMARY KEY)`
        yield* sql`INSERT INTO changing VALUES (1)`
        expect(yield* sql`SELECT * FROM changing WHERE id = ${1}`).toEqual([{ id: 1 }])
        yield* sql`ALTER TABLE changing ADD COLUMN name text DEFAULT 'ana'`
        expect(yield* sql`SELECT * FROM changing WHERE id = ${1}`).toEqual([{ id: 1, name: "ana" }])
      })
    )

    it.effect("fails a run whose parameter does not fit, and runs the same statement after it", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const refused = yield* Effect.flip(sql`SELECT ${"not a number"}::int AS n`)
        expect(refused.reason._tag).toBe("UnknownError")
        expect(yield* sql`SELECT ${"42"}::int AS n`).toEqual([{ n: 42 }])
      })
    )

    it.effect("runs prepared statements in a transaction that rolls back, and after it", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE kept (n int)`
        const failed = yield* Effect.flip(
          sql.withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO kept VALUES (${1})`
              return yield* Effect.fail("abandon")
            })
          )
        )
        expect(failed).toBe("abandon")
        yield* sql`INSERT INTO kept VALUES (${2})`
        expect(yield* sql`SELECT n FROM kept`).toEqual([{ n: 2 }])
      })
    )
  })
})
