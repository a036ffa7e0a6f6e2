// Webhook endpoints (SPEC 13.5): URLs a company subscribes to event types, and the delivery of an event to each.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // An endpoint deleted stays as a row, so that the deliveries made for it still name it; it receives nothing more.
  yield* sql`
      CREATE TABLE webhook_endpoints (
        id text PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        url text NOT NULL,
        events text[] NOT NULL CHECK (cardinality(events) > 0),
        created_at timestamptz NOT NULL,
        deleted_at timestamptz
      )`
  // The endpoints an event goes to: those of its company and mode, looked up with every event recorded.
  yield* sql`
      CREATE INDEX webhook_endpoints_subscribed ON webhook_endpoints (company_id, mode, created_at, id)
      WHERE deleted_at IS NULL`
  // Null for a delivery to an invoice's own postback URL.
  yield* sql`ALTER TABLE deliveries ADD COLUMN endpoint_id text REFERENCES webhook_endpoints (id)`
})
