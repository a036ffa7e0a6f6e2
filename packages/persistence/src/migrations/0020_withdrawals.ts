// Withdrawals (SPEC 13.3): a withdrawal and the ledger entries that draw it and give it back; events of withdrawals,
// which belong to no invoice; and the withdrawal fee of stored fee plans.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
      CREATE TABLE withdrawals (
        id text PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        amount bigint NOT NULL CHECK (amount >= 100),
        fee bigint NOT NULL CHECK (fee >= 0),
        status text NOT NULL CHECK (status IN ('pending', 'processing', 'paid', 'failed', 'canceled')),
        sources jsonb NOT NULL,
        destination jsonb NOT NULL,
        rail text CHECK (rail IN ('pix', 'ted')),
        end_to_end_id text,
        failure_reason text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        sent_at timestamptz,
        paid_at timestamptz,
        -- When the sweep is to ask the rail about it next; none once nothing more can happen to it.
        next_check_at timestamptz
      )`
  // A company's withdrawals newest first, whole or by status; what the sweep hands over next, and asks about next.
  yield* sql`CREATE INDEX withdrawals_list ON withdrawals (company_id, mode, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX withdrawals_list_status ON withdrawals (company_id, mode, status, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX withdrawals_pending ON withdrawals (created_at, id) WHERE status = 'pending'`
  yield* sql`CREATE INDEX withdrawals_due ON withdrawals (next_check_at) WHERE next_check_at IS NOT NULL`

  yield* sql`ALTER TABLE ledger_entries ALTER COLUMN invoice_id DROP NOT NULL`
  yield* sql`ALTER TABLE ledger_entries ADD COLUMN withdrawal_id text REFERENCES withdrawals (id)`
  yield* sql`
      ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_owner_check
        CHECK ((invoice_id IS NULL) <> (withdrawal_id IS NULL))`
  yield* sql`CREATE INDEX ledger_entries_withdrawal ON ledger_entries (withdrawal_id, id) WHERE withdrawal_id IS NOT NULL`
  yield* sql`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_type_check`
  yield* sql`
      ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_type_check
        CHECK (type IN ('payment', 'fee', 'refund', 'refund_reversal', 'chargeback', 'settlement', 'withdrawal',
                        'withdrawal_fee', 'withdrawal_reversal'))`

  yield* sql`ALTER TABLE events ALTER COLUMN invoice_id DROP NOT NULL`

  // The default withdrawal fee (SPEC 13.3) on every plan stored without one.
  yield* sql`
      UPDATE companies SET fee_plan = fee_plan || '{"withdrawalFee": 367}'::jsonb
      WHERE fee_plan -> 'withdrawalFee' IS NULL`
})
