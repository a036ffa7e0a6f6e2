// Banks (SPEC 15): the registration of each boleto a bank registers from its files, the files exchanged with the bank
// (each kept as it was, a remessa's number from a sequence that never repeats), the payments a bank makes for
// withdrawals, attempt by attempt, and the detail a timeline entry may carry.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE invoice_timeline ADD COLUMN detail text`

  // A boleto of the sandbox's has no row: it is registered at once.
  yield* sql`
      CREATE TABLE boleto_registrations (
        invoice_id bigint PRIMARY KEY REFERENCES invoices (id),
        our_number text NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('pending', 'registered', 'rejected')),
        remessa text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`
  yield* sql`CREATE INDEX boleto_registrations_queued ON boleto_registrations (invoice_id)
      WHERE status = 'pending' AND remessa IS NULL`
  yield* sql`CREATE INDEX boleto_registrations_remessa ON boleto_registrations (remessa) WHERE remessa IS NOT NULL`

  yield* sql`CREATE SEQUENCE bank_remessa_sequence START WITH 1`
  yield* sql`
      CREATE TABLE bank_files (
        name text PRIMARY KEY,
        direction text NOT NULL CHECK (direction IN ('remessa', 'retorno')),
        service text NOT NULL CHECK (service IN ('cobranca', 'pagamentos', 'refusal')),
        sequence bigint,
        content text NOT NULL,
        status text NOT NULL CHECK (status IN ('written', 'sent', 'refused', 'read')),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK ((direction = 'remessa') = (sequence IS NOT NULL))
      )`
  yield* sql`CREATE INDEX bank_files_unsent ON bank_files (created_at, name) WHERE status = 'written'`

  yield* sql`CREATE SEQUENCE bank_payout_reference START WITH 1`
  yield* sql`
      CREATE TABLE bank_payouts (
        reference text PRIMARY KEY,
        withdrawal_id text NOT NULL REFERENCES withdrawals (id),
        attempt integer NOT NULL CHECK (attempt >= 1),
        form text NOT NULL CHECK (form IN ('pix', 'ted', 'creditInAccount')),
        amount bigint NOT NULL CHECK (amount > 0),
        destination jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'accepted', 'paid', 'failed', 'returned')),
        remessa text,
        occurrences text NOT NULL DEFAULT '',
        end_to_end_id text,
        paid_on date,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (withdrawal_id, attempt)
      )`
  yield* sql`CREATE INDEX bank_payouts_queued ON bank_payouts (created_at, reference)
      WHERE status = 'queued' AND remessa IS NULL`
  yield* sql`CREATE INDEX bank_payouts_remessa ON bank_payouts (remessa) WHERE remessa IS NOT NULL`
})
