// The Postgres server the worker tests use (TEST_DATABASE_URL, which CI sets), and statements on its admin
// database: each test file creates a database of its own and drops it afterwards.
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"

const adminUrl = process.env.TEST_DATABASE_URL

/** The admin URL when there is a server to test against, none otherwise. */
export const servers: ReadonlyArray<string> = adminUrl === undefined || adminUrl === "" ? [] : [adminUrl]

export const onAdmin = (url: string, statement: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(statement)
  }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.runPromise)
