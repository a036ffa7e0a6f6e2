// Pix through a provider: the paying pix's end-to-end id, refunds pending until the provider answers, received pix
// that paid nothing and their returns, and how far the reconciliation has listed.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A pix invoice paid by a provider's pix keeps that pix's end-to-end id: a notification or a reconciliation that
  // brings it again finds it paid, and its refunds return part of that pix.
  yield* sql`ALTER TABLE invoices ADD COLUMN pix_end_to_end_id text UNIQUE`
  // A pix refund is asked of the provider, which answers later: it is `pending` meanwhile, its debit already
  // written so that no other refund spends the same balance, and `failed` with a reversing credit if refused.
  yield* sql`ALTER TABLE refunds DROP CONSTRAINT refunds_status_check`
  yield* sql`
      ALTER TABLE refunds
        ADD CONSTRAINT refunds_status_check CHECK (status IN ('pending', 'succeeded', 'failed')),
        ADD COLUMN return_id text UNIQUE,
        ADD COLUMN failure_reason text,
        ADD COLUMN settled_at timestamptz`
  yield* sql`CREATE INDEX refunds_pending ON refunds (created_at) WHERE status = 'pending'`
  yield* sql`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_type_check`
  yield* sql`
      ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_type_check
        CHECK (type IN ('payment', 'fee', 'refund', 'refund_reversal', 'chargeback'))`
  // Why an event happened, when its type alone does not say (a payment rejected, a refund refused).
  yield* sql`ALTER TABLE events ADD COLUMN reason text`
  // A received pix that did not pay its invoice (another amount, an invoice no longer pending), once: a repeated
  // notification of it records no second event, and it is returned to its payer whole, under a return id of ours.
  yield* sql`
      CREATE TABLE pix_rejections (
        end_to_end_id text PRIMARY KEY,
        invoice_id bigint NOT NULL REFERENCES invoices (id),
        amount bigint NOT NULL CHECK (amount > 0),
        reason text NOT NULL,
        return_id text NOT NULL UNIQUE,
        return_state text NOT NULL DEFAULT 'pending' CHECK (return_state IN ('pending', 'returned', 'refused')),
        created_at timestamptz NOT NULL,
        settled_at timestamptz
      )`
  yield* sql`CREATE INDEX pix_rejections_pending ON pix_rejections (created_at) WHERE return_state = 'pending'`
  // How far the provider's received pix have been listed by the reconciliation, so that the next one goes on from
  // there; one row per provider.
  yield* sql`
      CREATE TABLE pix_reconciliations (
        provider text PRIMARY KEY,
        listed_until timestamptz NOT NULL
      )`
})
