// Hybrid boletos (SPEC 15.1): what the bank said it received for a boleto, kept once; a boleto withdrawn from the
// bank when its invoice was paid by pix, with the write-off a later remessa carries; and the pix charges of hybrid
// boletos to remove at the provider once the bank moved their invoice.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
      ALTER TABLE boleto_registrations
        ADD COLUMN paid_amount bigint CHECK (paid_amount >= 0),
        ADD COLUMN withdrawn_at timestamptz,
        ADD COLUMN write_off_queued boolean NOT NULL DEFAULT false,
        ADD COLUMN write_off_remessa text,
        ADD CHECK (NOT write_off_queued OR withdrawn_at IS NOT NULL)`
  yield* sql`DROP INDEX boleto_registrations_queued`
  yield* sql`CREATE INDEX boleto_registrations_queued ON boleto_registrations (invoice_id)
      WHERE status = 'pending' AND remessa IS NULL AND withdrawn_at IS NULL`
  yield* sql`CREATE INDEX boleto_registrations_write_offs ON boleto_registrations (invoice_id)
      WHERE write_off_queued AND write_off_remessa IS NULL`
  yield* sql`CREATE INDEX boleto_registrations_write_off_remessa ON boleto_registrations (write_off_remessa)
      WHERE write_off_remessa IS NOT NULL`

  yield* sql`
      CREATE TABLE pix_charge_removals (
        txid text PRIMARY KEY,
        invoice_id bigint NOT NULL REFERENCES invoices (id),
        queued_at timestamptz NOT NULL,
        done_at timestamptz
      )`
  yield* sql`CREATE INDEX pix_charge_removals_pending ON pix_charge_removals (queued_at, txid) WHERE done_at IS NULL`
})
