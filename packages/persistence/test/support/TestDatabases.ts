// The databases every contract runs on: embedded PGlite always, and Postgres too when TEST_DATABASE_URL names a
// server (CI sets it); TEST_DATABASE_ONLY=postgres (`pnpm test:postgres`) keeps Postgres alone. A suite gets a
// database of its own when its layer is built, and it is dropped when the suite ends. The contracts of the ports are
// held by the application's in-memory implementations as well (`inMemory`), outside `pnpm test:postgres`.
import { PgClient } from "@effect/sql-pg"
import { describe, layer, type Vitest } from "@effect/vitest"
import { InMemoryPorts } from "@fatura/application/testing"
import { Effect, Layer, Redacted, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { Database } from "../../src/index.js"
import { migratedImage } from "./migratedImage.js"

/** What a contract suite is told of the implementation it runs on. */
export interface Implementation {
  readonly name: string
  /** Whether two transactions can be open at once, so that one can be watched waiting for another. */
  readonly concurrent: boolean
}

export interface TestDatabase extends Implementation {
  readonly name: "PGlite" | "Postgres"
  /**
   * Whether two transactions can be open at once. PGlite is one connection that serves one transaction after
   * another, so what one transaction sees of another that is still open can only be watched on Postgres.
   */
  readonly concurrent: boolean
  /** A new, empty database for the enclosing scope, dropped when the scope closes. */
  readonly fresh: Effect.Effect<Database.DatabaseConfig, SqlError, Scope.Scope>
  /**
   * A new database for the enclosing scope that `Database.layer` will migrate: on PGlite one started from the test
   * run's migrated image when there is one, so that only what the image lacks is left to apply.
   */
  readonly freshToMigrate: Effect.Effect<Database.DatabaseConfig, SqlError, Scope.Scope>
}

const embedded: TestDatabase = {
  name: "PGlite",
  concurrent: false,
  fresh: Effect.succeed({ _tag: "Embedded", dataDir: undefined }),
  freshToMigrate: Effect.map(Effect.promise(migratedImage), (image) => ({
    _tag: "Embedded",
    dataDir: undefined,
    image
  }))
}

const onServer = (adminUrl: string, statement: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(statement)
  }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(adminUrl), maxConnections: 1 })))

const postgres = (adminUrl: string): TestDatabase => {
  const fresh = Effect.acquireRelease(
    Effect.gen(function* () {
      const name = `fatura_persistence_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
      yield* onServer(adminUrl, `CREATE DATABASE ${name}`)
      return name
    }),
    (name) => Effect.orDie(onServer(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  ).pipe(
    Effect.map((name): Database.DatabaseConfig => {
      const url = new URL(adminUrl)
      url.pathname = `/${name}`
      return { _tag: "Postgres", url: Redacted.make(url.toString()), maxConnections: 10 }
    })
  )
  return { name: "Postgres", concurrent: true, fresh, freshToMigrate: fresh }
}

const adminUrl = process.env.TEST_DATABASE_URL

export const testDatabases: ReadonlyArray<TestDatabase> =
  adminUrl === undefined || adminUrl === ""
    ? [embedded]
    : process.env.TEST_DATABASE_ONLY === "postgres"
      ? [postgres(adminUrl)]
      : [embedded, postgres(adminUrl)]

/** A client of a fresh database that no migration has touched. */
export const emptyDatabase = (database: TestDatabase) =>
  Layer.unwrap(Effect.map(database.fresh, (config) => Database.client(config)))

/** Every port over a fresh, migrated database, as the application gets them. */
export const migratedDatabase = (database: TestDatabase) =>
  Layer.unwrap(Effect.map(database.freshToMigrate, Database.layer))

export type Ports = Layer.Success<ReturnType<typeof migratedDatabase>>

/**
 * Declares `suite` once for every test database, each over a fresh migrated database that its cases share (so each
 * case makes the companies it works on). The clock is the real one: the adapters are given their instants, and the
 * transaction retries wait for real.
 */
export const onEachDatabase = (
  name: string,
  suite: (it: Vitest.MethodsNonLive<Ports>, database: TestDatabase) => void
) => {
  for (const database of testDatabases) {
    layer(migratedDatabase(database), { excludeTestServices: true, timeout: "60 seconds" })(
      `${name} on ${database.name}`,
      (it) => suite(it, database)
    )
  }
}

/** The ports that the SQL adapters and the in-memory ones both provide: what a contract suite may use. */
export type Stores = Layer.Success<typeof InMemoryPorts.layer>

/** A suite written once for every implementation of the ports it holds to its contract. */
export type Contract = (it: Vitest.MethodsNonLive<Stores>, implementation: Implementation) => void

const memory: Implementation = { name: "memory", concurrent: true }

/**
 * Declares a contract `suite` on the application's in-memory ports, over one database that its cases share, as
 * `onEachDatabase` does on the SQL ones. Left out of `pnpm test:postgres`, which runs the Postgres variants alone.
 */
export const inMemory = (name: string, suite: Contract) => {
  if (process.env.TEST_DATABASE_ONLY === "postgres") return
  layer(InMemoryPorts.layer, { excludeTestServices: true, timeout: "60 seconds" })(`${name} in memory`, (it) =>
    suite(it, memory)
  )
}

/** Declares `suite`, about the embedded database alone, outside `pnpm test:postgres`, which runs the Postgres half. */
export const embeddedOnly = (name: string, suite: () => void) => {
  if (process.env.TEST_DATABASE_ONLY === "postgres") return
  describe(name, suite)
}
