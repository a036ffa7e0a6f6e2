// Migrations through effect/sql's migrator on PGlite.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { PgliteClient, PgliteMigrator } from "../src/index.js"

const statement = (text: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(text)
  })

const first = {
  "1_create_users": statement("CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL UNIQUE)"),
  "2_add_name": statement("ALTER TABLE users ADD COLUMN name text")
}

describe("PgliteMigrator", () => {
  it.layer(PgliteClient.layer({}))("run", (it) => {
    it.effect("applies each migration once", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        expect(yield* PgliteMigrator.run({ loader: PgliteMigrator.fromRecord(first) })).toEqual([
          [1, "create_users"],
          [2, "add_name"]
        ])
        expect(yield* PgliteMigrator.run({ loader: PgliteMigrator.fromRecord(first) })).toEqual([])

        const later = { ...first, "3_add_age": statement("ALTER TABLE users ADD COLUMN age int") }
        expect(yield* PgliteMigrator.run({ loader: PgliteMigrator.fromRecord(later) })).toEqual([[3, "add_age"]])

        const recorded = yield* sql<{ migration_id: number; name: string; created_at: Date }>`
          SELECT migration_id, name, created_at FROM effect_sql_migrations ORDER BY migration_id`
        expect(recorded.map((row) => [row.migration_id, row.name])).toEqual([
          [1, "create_users"],
          [2, "add_name"],
          [3, "add_age"]
        ])
        expect(recorded.every((row) => row.created_at instanceof Date)).toBe(true)
        yield* sql`INSERT INTO users (email, name, age) VALUES (${"a@example.com"}, ${"Ana"}, ${30})`
      })
    )

    it.effect("records nothing from a batch with a failing migration", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const broken = {
          "1_create_orders": statement("CREATE TABLE orders (id serial PRIMARY KEY)"),
          "2_broken": statement("ALTER TABLE missing ADD COLUMN x int")
        }
        const error = yield* Effect.flip(
          PgliteMigrator.run({ loader: PgliteMigrator.fromRecord(broken), table: "orders_migrations" })
        )
        expect(error._tag).toBe("MigrationError")
        expect(yield* sql`SELECT to_regclass('orders')::text AS orders`).toEqual([{ orders: null }])
        expect(yield* sql`SELECT count(*) AS count FROM orders_migrations`).toEqual([{ count: 0n }])
      })
    )
  })

  it.layer(
    PgliteMigrator.layer({ loader: PgliteMigrator.fromRecord(first) }).pipe(Layer.provideMerge(PgliteClient.layer({})))
  )("layer", (it) => {
    it.effect("migrates while the layer is built", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql`SELECT count(*) AS count FROM effect_sql_migrations`).toEqual([{ count: 2n }])
      })
    )
  })
})
