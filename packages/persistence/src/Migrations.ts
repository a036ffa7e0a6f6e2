// The database schema, as ordered migrations, applied at start under an advisory lock so that
// replicas starting together never race (SPEC 12.1). One dialect: Postgres, embedded or not.
import { Effect } from "effect"
import { Migrator, SqlClient } from "effect/sql"

const migrations = {
  "0001_foundation": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      CREATE FUNCTION fatura_ts(value timestamptz) RETURNS text
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $$ SELECT to_char(value AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') $$`
    yield* sql`
      CREATE TABLE companies (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        cnpj text NOT NULL,
        company_type text NOT NULL DEFAULT 'LTDA',
        corporate_reason text NOT NULL,
        fantasy_name text NOT NULL,
        url_website text NOT NULL DEFAULT '',
        email text NOT NULL,
        address_street text NOT NULL DEFAULT '',
        address_number text NOT NULL DEFAULT '',
        address_city text NOT NULL DEFAULT '',
        address_postal_code text NOT NULL DEFAULT '',
        address_province text NOT NULL DEFAULT '',
        address_state text NOT NULL DEFAULT '',
        bank_account text NOT NULL DEFAULT '',
        bank_agency text NOT NULL DEFAULT '',
        bank_digit text NOT NULL DEFAULT '',
        bank_name text NOT NULL DEFAULT '',
        bank_type text NOT NULL DEFAULT 'corrente' CHECK (bank_type IN ('corrente', 'poupanca')),
        blocked_system boolean NOT NULL DEFAULT false,
        blocked_processing boolean NOT NULL DEFAULT false,
        blocked_pix boolean NOT NULL DEFAULT false,
        blocked_card boolean NOT NULL DEFAULT false,
        blocked_bank_slip boolean NOT NULL DEFAULT false,
        blocked_sake boolean NOT NULL DEFAULT false,
        fee_plan jsonb NOT NULL,
        is_custom boolean NOT NULL,
        pix_key text NOT NULL,
        webhook_secret text NOT NULL,
        three_ds_activated_at timestamptz,
        three_ds_updated_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`
    yield* sql`
      CREATE TABLE api_keys (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        kind text NOT NULL CHECK (kind IN ('secret', 'public')),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        prefix text NOT NULL,
        hash text NOT NULL UNIQUE,
        public_token text,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz,
        CHECK ((kind = 'public') = (public_token IS NOT NULL))
      )`
    yield* sql`CREATE INDEX api_keys_company ON api_keys (company_id)`
    yield* sql`CREATE INDEX api_keys_prefix ON api_keys (prefix)`
    yield* sql`
      CREATE UNIQUE INDEX api_keys_one_public_token ON api_keys (company_id, mode)
      WHERE kind = 'public' AND revoked_at IS NULL`
    yield* sql`
      CREATE TABLE clients (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        document_type text NOT NULL CHECK (document_type IN ('cpf', 'cnpj')),
        document_number text NOT NULL,
        name text NOT NULL,
        email text NOT NULL,
        phone text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (company_id, mode, document_number)
      )`
    yield* sql`
      CREATE TABLE invoices (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        secure_id uuid NOT NULL UNIQUE,
        company_id bigint NOT NULL REFERENCES companies (id),
        client_id bigint NOT NULL REFERENCES clients (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        method text NOT NULL CHECK (method IN ('pix', 'bank_slip', 'credit_card')),
        status text NOT NULL CHECK (
          status IN ('pending', 'paid', 'partially_refunded', 'refunded', 'expired', 'refused', 'chargedback')
        ),
        amount bigint NOT NULL CHECK (amount > 0),
        installments integer NOT NULL CHECK (installments BETWEEN 1 AND 12),
        refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount BETWEEN 0 AND amount),
        refused_reason text,
        postback_url text,
        traceable boolean NOT NULL,
        ip text,
        metadata jsonb,
        external_ref text,
        items jsonb NOT NULL,
        payer jsonb NOT NULL,
        token_checkout text NOT NULL,
        fee jsonb NOT NULL,
        pix_qr_code text,
        pix_txid text UNIQUE,
        pix_expires_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        paid_at timestamptz
      )`
    yield* sql`CREATE INDEX invoices_company_mode ON invoices (company_id, mode, id DESC)`
    yield* sql`
      CREATE TABLE invoice_timeline (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        invoice_id bigint NOT NULL REFERENCES invoices (id),
        status text NOT NULL,
        event text NOT NULL,
        created_at timestamptz NOT NULL
      )`
    yield* sql`CREATE INDEX invoice_timeline_invoice ON invoice_timeline (invoice_id, id)`
    yield* sql`
      CREATE TABLE ledger_entries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        invoice_id bigint NOT NULL REFERENCES invoices (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        type text NOT NULL CHECK (type IN ('payment', 'fee', 'refund', 'chargeback')),
        direction text NOT NULL CHECK (direction IN ('credit', 'debit')),
        amount bigint NOT NULL CHECK (amount >= 0),
        balance text NOT NULL CHECK (balance IN ('pix', 'card', 'bank_slip')),
        created_at timestamptz NOT NULL
      )`
    yield* sql`CREATE INDEX ledger_entries_company ON ledger_entries (company_id, mode, balance)`
    yield* sql`CREATE INDEX ledger_entries_invoice ON ledger_entries (invoice_id, id)`
    yield* sql`
      CREATE TABLE events (
        id text PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        invoice_id bigint NOT NULL REFERENCES invoices (id),
        type text NOT NULL,
        livemode boolean NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`
    yield* sql`CREATE INDEX events_company ON events (company_id, created_at DESC)`
    yield* sql`CREATE INDEX events_invoice ON events (invoice_id)`
  }),
  "0002_boleto_card_idempotency": Effect.gen(function* () {
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
  }),
  "0003_refunds": Effect.gen(function* () {
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
  }),
  "0004_postbacks": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      ALTER TABLE companies
        ADD COLUMN previous_webhook_secret text,
        ADD COLUMN previous_webhook_secret_expires_at timestamptz`
    yield* sql`
      CREATE TABLE deliveries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id text NOT NULL REFERENCES events (id),
        company_id bigint NOT NULL REFERENCES companies (id),
        url text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_status_code integer,
        last_error text,
        next_attempt_at timestamptz,
        lease_until timestamptz,
        leased_by text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`
    // Events of one change share their instant: the sequence keeps them in the order they were recorded.
    yield* sql`ALTER TABLE events ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY`
    yield* sql`CREATE INDEX events_company_seq ON events (company_id, seq DESC)`
    yield* sql`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'`
    yield* sql`CREATE INDEX deliveries_event ON deliveries (event_id)`
    yield* sql`
      CREATE TABLE delivery_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id bigint NOT NULL REFERENCES deliveries (id),
        attempt integer NOT NULL,
        worker text NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz NOT NULL,
        status_code integer,
        error text,
        duration_ms integer NOT NULL,
        succeeded boolean NOT NULL
      )`
    yield* sql`CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, id)`
  }),
  "0005_card_tokens": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      CREATE TABLE card_tokens (
        token_hash text PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        brand text NOT NULL,
        first_digits text NOT NULL CHECK (first_digits ~ '^[0-9]{6}$'),
        last_digits text NOT NULL CHECK (last_digits ~ '^[0-9]{4}$'),
        holder_name text NOT NULL,
        expiration_month integer NOT NULL,
        expiration_year integer NOT NULL,
        acquirer_reference text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`
  }),
  // Balances and paid totals kept as running sums, moved by triggers in the transaction that writes the ledger entry
  // or sets `paid_at`: reading them costs the same on the first day and after a million invoices (SPEC 7.4).
  "0006_running_totals": Effect.gen(function* () {
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
  }),
  "0007_idempotency_claims_in_transaction": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // A claim is now a lock held by the request's own transaction; a row is only ever a stored response.
    // Claims left by requests that died under the old lease scheme are dropped, so their keys can run again.
    yield* sql`DELETE FROM idempotency_keys WHERE state <> 'completed'`
    yield* sql`
      ALTER TABLE idempotency_keys
        DROP COLUMN state,
        DROP COLUMN lease_until,
        ALTER COLUMN response_status SET NOT NULL,
        ALTER COLUMN response_body SET NOT NULL`
  }),
  "0008_webhook_secrets_per_mode": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // A company's signing secrets, per mode (test and live never mix). One is current (`signs_until` unset); a
    // rolled one keeps signing until `signs_until`, the roll's time plus the overlap.
    yield* sql`
      CREATE TABLE webhook_secrets (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        secret text NOT NULL,
        created_at timestamptz NOT NULL,
        signs_until timestamptz
      )`
    yield* sql`CREATE UNIQUE INDEX webhook_secrets_current ON webhook_secrets (company_id, mode) WHERE signs_until IS NULL`
    yield* sql`CREATE INDEX webhook_secrets_company_mode ON webhook_secrets (company_id, mode)`
    // Until now one secret signed both modes, so it becomes the secret of each; a rolled one still overlapping
    // keeps its end. When the previous secret was made is not known: the company's creation is the earliest it can
    // be, and the current one was made at the roll, 24 h before the previous one stops.
    yield* sql`
      INSERT INTO webhook_secrets (company_id, mode, secret, created_at, signs_until)
      SELECT c.id, m.mode, c.previous_webhook_secret, c.created_at, c.previous_webhook_secret_expires_at
      FROM companies c CROSS JOIN (VALUES ('test'), ('live')) AS m (mode)
      WHERE c.previous_webhook_secret IS NOT NULL AND c.previous_webhook_secret_expires_at > now()
      ORDER BY c.id, m.mode`
    yield* sql`
      INSERT INTO webhook_secrets (company_id, mode, secret, created_at)
      SELECT c.id, m.mode, c.webhook_secret,
             coalesce(c.previous_webhook_secret_expires_at - interval '24 hours', c.created_at)
      FROM companies c CROSS JOIN (VALUES ('test'), ('live')) AS m (mode)
      ORDER BY c.id, m.mode`
    yield* sql`
      ALTER TABLE companies
        DROP COLUMN webhook_secret,
        DROP COLUMN previous_webhook_secret,
        DROP COLUMN previous_webhook_secret_expires_at`
  }),
  "0009_idempotency_by_principal": Effect.gen(function* () {
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
  }),
  "0010_retention": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // The purge takes what is past its retention oldest first, a small batch at a time: these indexes find a batch
    // without reading the tables whole.
    yield* sql`CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)`
    yield* sql`CREATE INDEX events_created ON events (created_at)`
  }),
  "0011_list_indexes": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // The list is newest first by creation time, then id, and each of its filters gets an index in that order: a
    // page reads its own rows and stops, instead of walking a company's whole history for a filter that matches
    // few of its invoices or none (an external_ref, a recent created_gte, an old created_lte, a rare status).
    yield* sql`CREATE INDEX invoices_company_mode_created ON invoices (company_id, mode, created_at, id)`
    yield* sql`CREATE INDEX invoices_company_mode_status ON invoices (company_id, mode, status, created_at, id)`
    yield* sql`CREATE INDEX invoices_company_mode_method ON invoices (company_id, mode, method, created_at, id)`
    yield* sql`
      CREATE INDEX invoices_company_mode_external_ref ON invoices (company_id, mode, external_ref, created_at, id)
      WHERE external_ref IS NOT NULL`
    // Its one reader was the list in id order; the creation-time index serves every (company, mode) lookup.
    yield* sql`DROP INDEX invoices_company_mode`
  }),
  "0012_charges_outside_transactions": Effect.gen(function* () {
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
  }),
  "0013_pix_provider": Effect.gen(function* () {
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
  }),
  "0014_late_card_charges": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // A charge answered when its invoice was no longer pending pays nothing (`late`); one the acquirer approved is
    // given back to the card, recorded `requested` before the acquirer is asked and closed with how it was done.
    yield* sql`ALTER TABLE card_charges DROP CONSTRAINT card_charges_state_check`
    yield* sql`
      ALTER TABLE card_charges
        ADD CONSTRAINT card_charges_state_check
          CHECK (state IN ('requested', 'approved', 'refused', 'void', 'late')),
        ADD COLUMN reversal text CHECK (reversal IN ('requested', 'voided', 'refunded')),
        ADD COLUMN reversed_at timestamptz,
        ADD CONSTRAINT card_charges_reversal_of_late CHECK (reversal IS NULL OR state = 'late')`
    yield* sql`CREATE INDEX card_charges_reversing ON card_charges (settled_at) WHERE reversal = 'requested'`
  }),
  "0015_deployment_secrets": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Secrets of the whole deployment, made once by whichever process needs one first and shared by all: the key of
    // the fingerprints by which a repeated request's card data is compared (`IdempotencyStore.fingerprintKey`).
    yield* sql`
      CREATE TABLE deployment_secrets (
        name text PRIMARY KEY,
        value text NOT NULL
      )`
  })
}

const lockKey = 0x66617475 // "fatu"

/** Applies the migrations not yet applied; concurrent callers wait for each other on an advisory lock. */
export const run = Effect.suspend(() => runThrough(undefined))

/** Applies the migrations not yet applied up to and including `last` (all when undefined), as `run` does. */
export const runThrough = (last: keyof typeof migrations | undefined) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const names = Object.keys(migrations) as Array<keyof typeof migrations>
    const chosen = last === undefined ? names : names.slice(0, names.indexOf(last) + 1)
    const migrate = Migrator.make({})({
      loader: Migrator.fromRecord(Object.fromEntries(chosen.map((name) => [name, migrations[name]])))
    })
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`SELECT pg_advisory_xact_lock(${lockKey})`
        return yield* migrate
      })
    )
  })
