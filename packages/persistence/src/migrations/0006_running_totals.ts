// Balances and paid totals kept as running sums, moved by triggers in the transaction that writes the ledger entry
// or sets `paid_at`: reading them costs the same on the first day and after a million invoices (SPEC 7.4).
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
      CREATE TABLE company_balances (
        company_id bigint NOT NULL REFERENCES companies (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        pix bigint NOT NULL DEFAULT 0,
        card bigint NOT NULL DEFAULT 0,
        bank_slip bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (company_id, mode)
      )`
  // Paid amounts by São Paulo calendar month of `paid_at`: the month's row is `amount_invoices_competicion`, the
  // sum of all rows `amount_invoice_total`.
  yield* sql`
      CREATE TABLE company_paid_months (
        company_id bigint NOT NULL REFERENCES companies (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        month date NOT NULL,
        amount bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (company_id, mode, month)
      )`
  yield* sql`
      CREATE FUNCTION fatura_paid_month(paid_at timestamptz) RETURNS date
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $$ SELECT date_trunc('month', paid_at AT TIME ZONE 'America/Sao_Paulo')::date $$`
  yield* sql`
      CREATE FUNCTION fatura_ledger_to_balance() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        signed bigint := CASE WHEN NEW.direction = 'credit' THEN NEW.amount ELSE -NEW.amount END;
      BEGIN
        INSERT INTO company_balances AS b (company_id, mode, pix, card, bank_slip)
        VALUES (NEW.company_id, NEW.mode,
                CASE WHEN NEW.balance = 'pix' THEN signed ELSE 0 END,
                CASE WHEN NEW.balance = 'card' THEN signed ELSE 0 END,
                CASE WHEN NEW.balance = 'bank_slip' THEN signed ELSE 0 END)
        ON CONFLICT (company_id, mode) DO UPDATE
          SET pix = b.pix + excluded.pix, card = b.card + excluded.card, bank_slip = b.bank_slip + excluded.bank_slip;
        RETURN NULL;
      END $$`
  yield* sql`
      CREATE TRIGGER ledger_entries_to_balance AFTER INSERT ON ledger_entries
      FOR EACH ROW EXECUTE FUNCTION fatura_ledger_to_balance()`
  yield* sql`
      CREATE FUNCTION fatura_paid_to_months() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.paid_at IS NOT DISTINCT FROM NEW.paid_at AND OLD.amount = NEW.amount THEN
          RETURN NULL;
        END IF;
        IF TG_OP = 'UPDATE' AND OLD.paid_at IS NOT NULL THEN
          UPDATE company_paid_months SET amount = amount - OLD.amount
          WHERE company_id = OLD.company_id AND mode = OLD.mode AND month = fatura_paid_month(OLD.paid_at);
        END IF;
        IF NEW.paid_at IS NOT NULL THEN
          INSERT INTO company_paid_months AS m (company_id, mode, month, amount)
          VALUES (NEW.company_id, NEW.mode, fatura_paid_month(NEW.paid_at), NEW.amount)
          ON CONFLICT (company_id, mode, month) DO UPDATE SET amount = m.amount + excluded.amount;
        END IF;
        RETURN NULL;
      END $$`
  yield* sql`
      CREATE TRIGGER invoices_paid_to_months AFTER INSERT OR UPDATE OF paid_at, amount ON invoices
      FOR EACH ROW EXECUTE FUNCTION fatura_paid_to_months()`
  // What was recorded before this migration, summed once.
  yield* sql`
      INSERT INTO company_balances (company_id, mode, pix, card, bank_slip)
      SELECT company_id, mode,
        coalesce(sum(CASE WHEN balance = 'pix' THEN signed END), 0),
        coalesce(sum(CASE WHEN balance = 'card' THEN signed END), 0),
        coalesce(sum(CASE WHEN balance = 'bank_slip' THEN signed END), 0)
      FROM (
        SELECT company_id, mode, balance, CASE WHEN direction = 'credit' THEN amount ELSE -amount END AS signed
        FROM ledger_entries
      ) l
      GROUP BY company_id, mode`
  yield* sql`
      INSERT INTO company_paid_months (company_id, mode, month, amount)
      SELECT company_id, mode, fatura_paid_month(paid_at), sum(amount)
      FROM invoices WHERE paid_at IS NOT NULL
      GROUP BY company_id, mode, fatura_paid_month(paid_at)`
})
