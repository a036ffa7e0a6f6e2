// Refunds, the indexes by which the expiry sweeps find pending pix and boletos, and a ledger the database itself
// keeps append-only.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
      CREATE TABLE refunds (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        invoice_id bigint NOT NULL REFERENCES invoices (id),
        amount bigint NOT NULL CHECK (amount > 0),
        reason text,
        status text NOT NULL DEFAULT 'succeeded' CHECK (status = 'succeeded'),
        created_at timestamptz NOT NULL
      )`
  yield* sql`CREATE INDEX refunds_invoice ON refunds (invoice_id, id)`
  yield* sql`
      CREATE INDEX invoices_pending_pix ON invoices (pix_expires_at)
      WHERE status = 'pending' AND method = 'pix'`
  yield* sql`
      CREATE INDEX invoices_pending_boleto ON invoices (boleto_due_date)
      WHERE status = 'pending' AND method = 'bank_slip'`
  // The ledger is append-only (SPEC 7.4): the database itself refuses to change or remove an entry.
  yield* sql`
      CREATE FUNCTION fatura_ledger_append_only() RETURNS trigger
      LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'ledger entries are never updated or deleted'; END $$`
  yield* sql`
      CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
      FOR EACH ROW EXECUTE FUNCTION fatura_ledger_append_only()`
})
