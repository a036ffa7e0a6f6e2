// Boletos and cards on invoices (the boleto's our-number from a sequence of its own), the card references a client's
// cards are known by, and the responses stored under Idempotency-Keys.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE SEQUENCE boleto_our_number START WITH 1`
  yield* sql`
      ALTER TABLE invoices
        ADD COLUMN boleto_barcode text,
        ADD COLUMN boleto_digitable_line text,
        ADD COLUMN boleto_due_date date,
        ADD COLUMN boleto_url text,
        ADD COLUMN boleto_bank_code text,
        ADD COLUMN boleto_our_number text UNIQUE,
        ADD COLUMN card jsonb,
        ADD COLUMN card_reference_id bigint`
  yield* sql`
      CREATE TABLE card_references (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        client_id bigint NOT NULL REFERENCES clients (id),
        brand text NOT NULL,
        first_digits text NOT NULL CHECK (first_digits ~ '^[0-9]{6}$'),
        last_digits text NOT NULL CHECK (last_digits ~ '^[0-9]{4}$'),
        expiration_month integer NOT NULL,
        expiration_year integer NOT NULL,
        created_at timestamptz NOT NULL,
        UNIQUE (client_id, brand, first_digits, last_digits, expiration_month, expiration_year)
      )`
  yield* sql`ALTER TABLE invoices ADD FOREIGN KEY (card_reference_id) REFERENCES card_references (id)`
  yield* sql`
      CREATE TABLE idempotency_keys (
        company_id bigint NOT NULL REFERENCES companies (id),
        endpoint text NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
        lease_until timestamptz NOT NULL,
        response_status integer,
        response_body text,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (company_id, endpoint, key)
      )`
})
