// Webhook signing secrets per mode, in a table of their own instead of the company's row.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A company's signing secrets, per mode (test and live never mix). One is current (`signs_until` unset); a
  // rolled one keeps signing until `signs_until`, the roll's time plus the overlap.
  yield* sql`
      CREATE TABLE webhook_secrets (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        secret text NOT NULL,
        created_at timestamptz NOT NULL,
        signs_until timestamptz
      )`
  yield* sql`CREATE UNIQUE INDEX webhook_secrets_current ON webhook_secrets (company_id, mode) WHERE signs_until IS NULL`
  yield* sql`CREATE INDEX webhook_secrets_company_mode ON webhook_secrets (company_id, mode)`
  // Until now one secret signed both modes, so it becomes the secret of each; a rolled one still overlapping
  // keeps its end. When the previous secret was made is not known: the company's creation is the earliest it can
  // be, and the current one was made at the roll, 24 h before the previous one stops.
  yield* sql`
      INSERT INTO webhook_secrets (company_id, mode, secret, created_at, signs_until)
      SELECT c.id, m.mode, c.previous_webhook_secret, c.created_at, c.previous_webhook_secret_expires_at
      FROM companies c CROSS JOIN (VALUES ('test'), ('live')) AS m (mode)
      WHERE c.previous_webhook_secret IS NOT NULL AND c.previous_webhook_secret_expires_at > now()
      ORDER BY c.id, m.mode`
  yield* sql`
      INSERT INTO webhook_secrets (company_id, mode, secret, created_at)
      SELECT c.id, m.mode, c.webhook_secret,
             coalesce(c.previous_webhook_secret_expires_at - interval '24 hours', c.created_at)
      FROM companies c CROSS JOIN (VALUES ('test'), ('live')) AS m (mode)
      ORDER BY c.id, m.mode`
  yield* sql`
      ALTER TABLE companies
        DROP COLUMN webhook_secret,
        DROP COLUMN previous_webhook_secret,
        DROP COLUMN previous_webhook_secret_expires_at`
})
