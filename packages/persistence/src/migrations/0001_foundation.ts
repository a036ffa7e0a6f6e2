// The first schema: companies and their API keys, clients, invoices with their timeline, the ledger and the events,
// and `fatura_ts`, the one way a timestamp is written out.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
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
})
