// The databases every integration test runs against: embedded PGlite always, and a fresh Postgres database
// per run when TEST_DATABASE_URL points at a server (CI sets it). Each is dropped when the tests end.
// TEST_DATABASE_ONLY=postgres (`pnpm test:postgres`) keeps the Postgres one alone.
import { PgClient } from "@effect/sql-pg"
import type { Database } from "@fatura/persistence"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { migratedImage } from "../../../../packages/persistence/test/support/migratedImage.js"

export interface TestDatabase {
  readonly name: string
  /**
   * A database of its own, dropped on release: on PGlite started from the test run's migrated image, if there is one,
   * unless `empty` asks for one no migration has touched.
   */
  readonly acquire: (options?: {
    readonly empty?: boolean
  }) => Promise<{ readonly config: Database.DatabaseConfig; readonly release: () => Promise<void> }>
}

const embedded: TestDatabase = {
  name: "PGlite",
  acquire: async (options) => ({
    config: { _tag: "Embedded", dataDir: undefined, image: options?.empty ? undefined : await migratedImage() },
    release: async () => {}
  })
}

const onAdmin = (adminUrl: string, statement: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(statement)
  }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(adminUrl), maxConnections: 1 })), Effect.runPromise)

/** A fresh database on the Postgres server of `adminUrl`, dropped on release. */
export const postgres = (adminUrl: string): TestDatabase => ({
  name: "Postgres",
  acquire: async () => {
    const database = `fatura_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
    await onAdmin(adminUrl, `CREATE DATABASE ${database}`)
    const url = new URL(adminUrl)
    url.pathname = `/${database}`
    return {
      config: { _tag: "Postgres", url: Redacted.make(url.toString()), maxConnections: 20 },
      release: () => onAdmin(adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
    }
  }
})

const adminUrl = process.env.TEST_DATABASE_URL

export const testDatabases: ReadonlyArray<TestDatabase> =
  adminUrl === undefined || adminUrl === ""
    ? [embedded]
    : process.env.TEST_DATABASE_ONLY === "postgres"
      ? [postgres(adminUrl)]
      : [embedded, postgres(adminUrl)]
