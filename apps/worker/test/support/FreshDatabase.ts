// The Postgres server the worker tests use — `fatura-worker` runs on Postgres only, so these tests always need one:
// TEST_DATABASE_URL, else the machine's local server — and statements on its admin database: each test file creates
// a database of its own and drops it afterwards.
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"

export const admin = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"

/** `statement` on the admin database; a server that cannot be reached fails with what to do about it. */
export const onAdmin = (statement: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(statement)
  }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(admin), maxConnections: 1 })), Effect.runPromise, (done) =>
    done.catch((error) => {
      throw new Error(`the worker's tests need a Postgres server at ${admin} (set TEST_DATABASE_URL): ${error}`)
    })
  )

/** The URL of database `name` on the admin server. */
export const databaseUrl = (name: string) => {
  const url = new URL(admin)
  url.pathname = `/${name}`
  return url.toString()
}
