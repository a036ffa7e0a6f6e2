// Instances backed by a directory, and instances the caller owns.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { PGlite } from "@electric-sql/pglite"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { PgliteClient } from "../src/index.js"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "sql-pglite-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("PgliteClient with a dataDir", () => {
  it.effect("keeps committed data across close and reopen", () =>
    Effect.gen(function* () {
      const dataDir = yield* tempDir
      const session = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | PgliteClient.PgliteClient>) =>
        Effect.provide(effect, PgliteClient.layer({ dataDir }))

      const first = yield* session(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE notes (body text)`
          yield* sql.withTransaction(sql`INSERT INTO notes VALUES (${"kept"})`)
          yield* sql
            .withTransaction(sql`INSERT INTO notes VALUES (${"discarded"})`.pipe(Effect.andThen(Effect.fail("no"))))
            .pipe(Effect.ignore)
          return (yield* PgliteClient.PgliteClient).pglite
        })
      )
      expect(first.closed).toBe(true)

      const rows = yield* session(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql`SELECT body FROM notes`
        })
      )
      expect(rows).toEqual([{ body: "kept" }])
    })
  )

  it.effect("leaves an adopted instance open", () =>
    Effect.gen(function* () {
      const pglite = yield* Effect.acquireRelease(
        Effect.promise(() => PGlite.create()),
        (pglite) => Effect.promise(() => pglite.close())
      )
      const rows = yield* Effect.provide(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql`SELECT 1 AS one`
        }),
        PgliteClient.layerFrom(pglite)
      )
      expect(rows).toEqual([{ one: 1 }])
      expect(pglite.closed).toBe(false)
      expect((yield* Effect.promise(() => pglite.query<{ two: number }>("SELECT 2 AS two"))).rows).toEqual([{ two: 2 }])
    })
  )
})
