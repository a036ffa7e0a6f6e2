// Indexes by which the retention purge finds what is past its retention.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The purge takes what is past its retention oldest first, a small batch at a time: these indexes find a batch
  // without reading the tables whole.
  yield* sql`CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)`
  yield* sql`CREATE INDEX events_created ON events (created_at)`
})
