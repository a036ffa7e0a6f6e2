// Idempotency-Key claims held as locks of the request's own transaction, no longer as leases written in the table.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A claim is now a lock held by the request's own transaction; a row is only ever a stored response.
  // Claims left by requests that died under the old lease scheme are dropped, so their keys can run again.
  yield* sql`DELETE FROM idempotency_keys WHERE state <> 'completed'`
  yield* sql`
      ALTER TABLE idempotency_keys
        DROP COLUMN state,
        DROP COLUMN lease_until,
        ALTER COLUMN response_status SET NOT NULL,
        ALTER COLUMN response_body SET NOT NULL`
})
