// Postbacks: each event's deliveries and their attempts, events in the order they were recorded, and a rolled
// webhook secret kept beside the current one.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
      ALTER TABLE companies
        ADD COLUMN previous_webhook_secret text,
        ADD COLUMN previous_webhook_secret_expires_at timestamptz`
  yield* sql`
      CREATE TABLE deliveries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id text NOT NULL REFERENCES events (id),
        company_id bigint NOT NULL REFERENCES companies (id),
        url text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_status_code integer,
        last_error text,
        next_attempt_at timestamptz,
        lease_until timestamptz,
        leased_by text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`
  // Events of one change share their instant: the sequence keeps them in the order they were recorded.
  yield* sql`ALTER TABLE events ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY`
  yield* sql`CREATE INDEX events_company_seq ON events (company_id, seq DESC)`
  yield* sql`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'`
  yield* sql`CREATE INDEX deliveries_event ON deliveries (event_id)`
  yield* sql`
      CREATE TABLE delivery_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id bigint NOT NULL REFERENCES deliveries (id),
        attempt integer NOT NULL,
        worker text NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz NOT NULL,
        status_code integer,
        error text,
        duration_ms integer NOT NULL,
        succeeded boolean NOT NULL
      )`
  yield* sql`CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, id)`
})
