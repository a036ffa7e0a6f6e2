// Card charges recorded before and settled after the acquirer answers, outside any transaction, and Idempotency-Keys
// held by a lease while a provider is called.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A card charge is recorded before the acquirer is called, under a reference the acquirer keeps as its
  // idempotency key, and settled after the answer, in a transaction of its own: no lock is held while the acquirer
  // thinks, and a charge whose answer was lost (a crash, a timeout) is settled later by asking the acquirer. A
  // charge made while creating an invoice keeps the invoice to create (`draft`, with its payer's data): it is
  // created when the charge settles as approved or refused, and never when the charge did not happen; the draft is
  // dropped once the charge settles, either way.
  yield* sql`
      CREATE TABLE card_charges (
        reference text PRIMARY KEY,
        invoice_id bigint REFERENCES invoices (id),
        company_id bigint NOT NULL REFERENCES companies (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        state text NOT NULL CHECK (state IN ('requested', 'approved', 'refused', 'void')),
        terms jsonb NOT NULL,
        draft jsonb,
        requested_at timestamptz NOT NULL,
        settled_at timestamptz,
        CHECK (state <> 'requested' OR invoice_id IS NOT NULL OR draft IS NOT NULL)
      )`
  // One charge in flight per invoice; the sweep finds the ones whose answer never came, oldest first.
  yield* sql`CREATE UNIQUE INDEX card_charges_in_flight ON card_charges (invoice_id) WHERE state = 'requested'`
  yield* sql`CREATE INDEX card_charges_requested ON card_charges (requested_at) WHERE state = 'requested'`
  // A request that calls a provider holds its Idempotency-Key by a lease (a row without a response yet) instead
  // of a transaction, and records how far it got, so that a repeat after the holder died resumes from there.
  yield* sql`
      ALTER TABLE idempotency_keys
        ALTER COLUMN response_status DROP NOT NULL,
        ALTER COLUMN response_body DROP NOT NULL,
        ADD COLUMN lease_token text,
        ADD COLUMN lease_until timestamptz,
        ADD COLUMN recovery_point text`
})
