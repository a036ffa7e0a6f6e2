// Receivables and the two buckets of every balance (SPEC 7.4, 13.1): a payment's money waits in its receivables
// until their day, then is available. What was paid before this ships was available at once: each paid invoice gets
// its receivables as already available, what its refunds and chargebacks took back as one negative receivable, and no
// balance changes.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
      CREATE TABLE receivables (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        invoice_id bigint NOT NULL REFERENCES invoices (id),
        installment int NOT NULL CHECK (installment BETWEEN 1 AND 12),
        amount bigint NOT NULL,
        fee bigint NOT NULL,
        net_amount bigint NOT NULL CHECK (net_amount = amount - fee),
        balance text NOT NULL CHECK (balance IN ('pix', 'card', 'bank_slip')),
        status text NOT NULL CHECK (status IN ('waiting_funds', 'available', 'anticipated')),
        payment_date date NOT NULL,
        original_payment_date date NOT NULL,
        anticipation_fee bigint NOT NULL DEFAULT 0 CHECK (anticipation_fee >= 0),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`
  // An invoice's receivables, for the moves that take back from them; the company's schedule, whole or by status;
  // and what the sweep makes available next.
  yield* sql`CREATE INDEX receivables_invoice ON receivables (invoice_id, id)`
  yield* sql`CREATE INDEX receivables_schedule ON receivables (company_id, mode, payment_date, id)`
  yield* sql`CREATE INDEX receivables_schedule_status ON receivables (company_id, mode, status, payment_date, id)`
  yield* sql`CREATE INDEX receivables_due ON receivables (payment_date, id) WHERE status = 'waiting_funds'`

  yield* sql`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_type_check`
  yield* sql`
      ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_type_check
        CHECK (type IN ('payment', 'fee', 'refund', 'refund_reversal', 'chargeback', 'settlement'))`

  yield* sql`
      ALTER TABLE company_balances
        ADD COLUMN waiting_pix bigint NOT NULL DEFAULT 0,
        ADD COLUMN waiting_card bigint NOT NULL DEFAULT 0,
        ADD COLUMN waiting_bank_slip bigint NOT NULL DEFAULT 0`
  yield* sql`
      CREATE OR REPLACE FUNCTION fatura_ledger_to_balance() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        signed bigint := CASE WHEN NEW.direction = 'credit' THEN NEW.amount ELSE -NEW.amount END;
        available bigint := CASE WHEN NEW.bucket = 'available' THEN signed ELSE 0 END;
        waiting bigint := CASE WHEN NEW.bucket = 'waiting' THEN signed ELSE 0 END;
      BEGIN
        INSERT INTO company_balances AS b
          (company_id, mode, pix, card, bank_slip, waiting_pix, waiting_card, waiting_bank_slip)
        VALUES (NEW.company_id, NEW.mode,
                CASE WHEN NEW.balance = 'pix' THEN available ELSE 0 END,
                CASE WHEN NEW.balance = 'card' THEN available ELSE 0 END,
                CASE WHEN NEW.balance = 'bank_slip' THEN available ELSE 0 END,
                CASE WHEN NEW.balance = 'pix' THEN waiting ELSE 0 END,
                CASE WHEN NEW.balance = 'card' THEN waiting ELSE 0 END,
                CASE WHEN NEW.balance = 'bank_slip' THEN waiting ELSE 0 END)
        ON CONFLICT (company_id, mode) DO UPDATE
          SET pix = b.pix + excluded.pix, card = b.card + excluded.card, bank_slip = b.bank_slip + excluded.bank_slip,
              waiting_pix = b.waiting_pix + excluded.waiting_pix,
              waiting_card = b.waiting_card + excluded.waiting_card,
              waiting_bank_slip = b.waiting_bank_slip + excluded.waiting_bank_slip;
        RETURN NULL;
      END $$`

  // The default settlement days (SPEC 13.1) on every plan stored without them.
  yield* sql`
      UPDATE companies
      SET fee_plan = fee_plan || '{"settlementDays": {"pix": 0, "bank_slip": 1, "credit_card": 30}}'::jsonb
      WHERE fee_plan -> 'settlementDays' IS NULL`

  // What was paid until now, as the ledger holds it: per invoice, its payment and fee over its installments (each
  // ⌊x / n⌋, the first also the remainder: sums are numeric, and divide as integers only as bigint), available from
  // the day it was paid; and what was taken back since.
  yield* sql`
      INSERT INTO receivables (company_id, mode, invoice_id, installment, amount, fee, net_amount, balance, status,
                               payment_date, original_payment_date, created_at, updated_at)
      SELECT p.company_id, p.mode, p.invoice_id, k,
        p.amount / p.n + CASE WHEN k = 1 THEN p.amount % p.n ELSE 0 END,
        p.fee / p.n + CASE WHEN k = 1 THEN p.fee % p.n ELSE 0 END,
        (p.amount / p.n + CASE WHEN k = 1 THEN p.amount % p.n ELSE 0 END)
          - (p.fee / p.n + CASE WHEN k = 1 THEN p.fee % p.n ELSE 0 END),
        p.balance, 'available', (p.paid_at AT TIME ZONE 'America/Sao_Paulo')::date,
        (p.paid_at AT TIME ZONE 'America/Sao_Paulo')::date, p.paid_at, p.paid_at
      FROM (
        SELECT l.invoice_id, l.company_id, l.mode, l.balance,
          CASE WHEN i.method = 'credit_card' THEN i.installments ELSE 1 END AS n,
          (sum(l.amount) FILTER (WHERE l.type = 'payment'))::bigint AS amount,
          coalesce(sum(l.amount) FILTER (WHERE l.type = 'fee'), 0)::bigint AS fee,
          min(l.created_at) FILTER (WHERE l.type = 'payment') AS paid_at
        FROM ledger_entries l JOIN invoices i ON i.id = l.invoice_id
        GROUP BY l.invoice_id, l.company_id, l.mode, l.balance, i.method, i.installments
        HAVING count(*) FILTER (WHERE l.type = 'payment') > 0
      ) p
      CROSS JOIN LATERAL generate_series(1, p.n) AS k
      ORDER BY p.invoice_id, k`
  yield* sql`
      INSERT INTO receivables (company_id, mode, invoice_id, installment, amount, fee, net_amount, balance, status,
                               payment_date, original_payment_date, created_at, updated_at)
      SELECT t.company_id, t.mode, t.invoice_id, t.n, t.signed, 0, t.signed, t.balance, 'available',
        (t.at AT TIME ZONE 'America/Sao_Paulo')::date, (t.at AT TIME ZONE 'America/Sao_Paulo')::date, t.at, t.at
      FROM (
        SELECT l.invoice_id, l.company_id, l.mode, l.balance,
          CASE WHEN i.method = 'credit_card' THEN i.installments ELSE 1 END AS n,
          sum(CASE WHEN l.direction = 'credit' THEN l.amount ELSE -l.amount END) AS signed,
          max(l.created_at) AS at
        FROM ledger_entries l JOIN invoices i ON i.id = l.invoice_id
        WHERE l.type IN ('refund', 'refund_reversal', 'chargeback')
        GROUP BY l.invoice_id, l.company_id, l.mode, l.balance, i.method, i.installments
      ) t
      WHERE t.signed <> 0
      ORDER BY t.invoice_id`
})
