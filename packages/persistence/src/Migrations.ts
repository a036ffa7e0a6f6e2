// The database schema, as ordered migrations (one a file under `migrations/`, listed in `migrations/InOrder.ts`),
// applied at start under an advisory lock so that replicas starting together never race (SPEC 12.1). One dialect:
// Postgres, embedded or not.
import { Effect } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { migrations } from "./migrations/InOrder.js"

const lockKey = 0x66617475 // "fatu"

/** Applies the migrations not yet applied; concurrent callers wait for each other on an advisory lock. */
export const run = Effect.suspend(() => runThrough(undefined))

/** Applies the migrations not yet applied up to and including `last` (all when undefined), as `run` does. */
export const runThrough = (last: keyof typeof migrations | undefined) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const names = Object.keys(migrations) as Array<keyof typeof migrations>
    const chosen = last === undefined ? names : names.slice(0, names.indexOf(last) + 1)
    const migrate = Migrator.make({})({
      loader: Migrator.fromRecord(Object.fromEntries(chosen.map((name) => [name, migrations[name]])))
    })
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`SELECT pg_advisory_xact_lock(${lockKey})`
        return yield* migrate
      })
    )
  })
