// Idempotency-Keys scoped by who sent the request (a company in one mode, or a checkout token), not the company alone.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Keys are now scoped by who sent the request — a company in one mode, or an invoice's checkout token — instead
  // of the company alone. A response stored before answered both modes, and keeps doing so for the rest of its
  // life: it is copied to each, so no repeat of an earlier request runs anew.
  yield* sql`
      ALTER TABLE idempotency_keys
        ADD COLUMN principal text,
        DROP CONSTRAINT idempotency_keys_pkey,
        ALTER COLUMN company_id DROP NOT NULL`
  yield* sql`
      INSERT INTO idempotency_keys (principal, company_id, endpoint, key, request_hash, response_status,
                                    response_body, created_at)
      SELECT 'company ' || company_id || ' live', company_id, endpoint, key, request_hash, response_status,
             response_body, created_at
      FROM idempotency_keys`
  yield* sql`UPDATE idempotency_keys SET principal = 'company ' || company_id || ' test' WHERE principal IS NULL`
  yield* sql`
      ALTER TABLE idempotency_keys
        ALTER COLUMN principal SET NOT NULL,
        ADD PRIMARY KEY (principal, endpoint, key)`
})
