// Every SQL statement the baseline (bench/baseline.mjs) sends, in order, per endpoint: copied from what the service
// sends, as captured with `ALTER DATABASE … SET log_statement = 'all'` and one request of each kind. When the
// service's SQL changes, capture again and update this file only: the statements, and the step lists at the end
// (a step is a statement plus how to fill its parameters; remove or add steps there).
//
// The `ctx` that parameter functions receive (built in baseline.mjs):
//   ctx.companyId, ctx.mode           the authenticated key's company and mode ("test" | "live")
//   ctx.id                            the searched id: a secureId (uuid) or a numeric id, as text
//   ctx.now                           the request's timestamp (ISO 8601)
//   ctx.body                          the validated create request (see baseline.mjs `validateCreate`)
//   ctx.invoice                       the invoice being created (secureId, amount, fee, pix, tokenCheckout, …)
//   ctx.rows.<step name>              the first row each earlier step returned
//   ctx.response()                    the JSON response, built from what is known so far (the event stores it)

/** How long a key lookup stays in the baseline's memory, as in the service (`KeyCacheTtl`, 3 s; 0 = none). */
export const KEY_CACHE_MS = 3000

// Authentication (both endpoints) — Authentication.authenticate → CompanyRepository.findKeyByHash: the sha256 of the
// bearer key to its key row and company. The baseline runs it only on a key-cache miss (see KEY_CACHE_MS).
export const KEY_LOOKUP = `
          SELECT 
  k.id AS key_id, k.company_id AS key_company_id, k.kind AS key_kind, k.mode AS key_mode, k.prefix AS key_prefix,
  fatura_ts(k.created_at) AS key_created_at, fatura_ts(k.revoked_at) AS key_revoked_at, c.id AS id, c.cnpj AS cnpj, c.company_type AS company_type, c.corporate_reason AS corporate_reason, c.fantasy_name AS fantasy_name, c.url_website AS url_website, c.email AS email, c.address_street AS address_street, c.address_number AS address_number, c.address_city AS address_city, c.address_postal_code AS address_postal_code, c.address_province AS address_province, c.address_state AS address_state, c.bank_account AS bank_account, c.bank_agency AS bank_agency, c.bank_digit AS bank_digit, c.bank_name AS bank_name, c.bank_type AS bank_type, c.blocked_system AS blocked_system, c.blocked_processing AS blocked_processing, c.blocked_pix AS blocked_pix, c.blocked_card AS blocked_card, c.blocked_bank_slip AS blocked_bank_slip, c.blocked_sake AS blocked_sake, c.fee_plan AS fee_plan, c.is_custom AS is_custom, c.pix_key AS pix_key, c.three_ds_activated_at IS NOT NULL AS is_active_3ds, fatura_ts(c.created_at) AS created_at, fatura_ts(c.updated_at) AS updated_at
          FROM api_keys k JOIN companies c ON c.id = k.company_id
          WHERE k.hash = $1`

// Create Invoices — CompanyRepository.findWithTotals (Invoices.create): the company as it is now (its blocks, fee plan
// and pix key; the key cache remembers only which company a key belongs to) and its running totals, for the
// response's `enterprise` object, in one statement before the transaction.
export const COMPANY_WITH_TOTALS = `
          SELECT c.id AS id, c.cnpj AS cnpj, c.company_type AS company_type, c.corporate_reason AS corporate_reason, c.fantasy_name AS fantasy_name, c.url_website AS url_website, c.email AS email, c.address_street AS address_street, c.address_number AS address_number, c.address_city AS address_city, c.address_postal_code AS address_postal_code, c.address_province AS address_province, c.address_state AS address_state, c.bank_account AS bank_account, c.bank_agency AS bank_agency, c.bank_digit AS bank_digit, c.bank_name AS bank_name, c.bank_type AS bank_type, c.blocked_system AS blocked_system, c.blocked_processing AS blocked_processing, c.blocked_pix AS blocked_pix, c.blocked_card AS blocked_card, c.blocked_bank_slip AS blocked_bank_slip, c.blocked_sake AS blocked_sake, c.fee_plan AS fee_plan, c.is_custom AS is_custom, c.pix_key AS pix_key, c.three_ds_activated_at IS NOT NULL AS is_active_3ds, fatura_ts(c.created_at) AS created_at, fatura_ts(c.updated_at) AS updated_at, 
  coalesce(b.pix, 0) AS balance_pix, coalesce(b.card, 0) AS balance_card,
  coalesce(b.bank_slip, 0) AS balance_bank_slip,
  (SELECT coalesce(sum(m.amount), 0) FROM company_paid_months m
    WHERE m.company_id = o.company_id AND m.mode = o.mode) AS amount_invoice_total,
  (SELECT coalesce(sum(m.amount), 0) FROM company_paid_months m
    WHERE m.company_id = o.company_id AND m.mode = o.mode
      AND m.month = fatura_paid_month($1::timestamptz)) AS amount_invoices_competicion
          FROM companies c
          CROSS JOIN (VALUES ($2::bigint, $3::text)) AS o (company_id, mode) LEFT JOIN company_balances b ON b.company_id = o.company_id AND b.mode = o.mode
          WHERE c.id = $4`

// The statement of both searches up to its WHERE clause.
const SEARCH_SELECT = `
          SELECT 
      i.id, i.secure_id::text AS secure_id, i.company_id, i.mode, i.method, i.status, i.amount,
        i.installments, i.refunded_amount, i.refused_reason, i.postback_url, i.traceable, i.ip, i.metadata,
        i.external_ref, i.items, i.payer, i.token_checkout, i.fee, i.pix_qr_code, i.pix_txid,
        fatura_ts(i.pix_expires_at) AS pix_expires_at, fatura_ts(i.created_at) AS created_at,
        fatura_ts(i.updated_at) AS updated_at, fatura_ts(i.paid_at) AS paid_at,
        i.boleto_barcode, i.boleto_digitable_line, to_char(i.boleto_due_date, 'YYYY-MM-DD') AS boleto_due_date,
        i.boleto_url, i.boleto_bank_code, i.boleto_our_number, i.card, i.card_reference_id,
        r.brand AS card_reference_brand, r.last_digits AS card_reference_last_digits,
        fatura_ts(r.created_at) AS card_reference_created_at,
        c.id AS client_id, c.name AS client_name, c.email AS client_email, c.phone AS client_phone,
        c.document_type AS client_document_type, c.document_number AS client_document_number,
        fatura_ts(c.created_at) AS client_created_at, fatura_ts(c.updated_at) AS client_updated_at,
        (SELECT coalesce(json_agg(json_build_object('status', t.status, 'event', t.event,
                                                    'created_at', fatura_ts(t.created_at)) ORDER BY t.id), '[]')
           FROM invoice_timeline t WHERE t.invoice_id = i.id) AS timeline,
        (SELECT coalesce(json_agg(json_build_object('id', l.id, 'type', l.type, 'direction', l.direction,
                                                    'amount', l.amount, 'balance', l.balance,
                                                    'created_at', fatura_ts(l.created_at)) ORDER BY l.id), '[]')
           FROM ledger_entries l WHERE l.invoice_id = i.id) AS movements,
        (SELECT coalesce(json_agg(json_build_object('id', f.id, 'amount', f.amount, 'reason', f.reason,
                                                    'status', f.status, 'created_at', fatura_ts(f.created_at))
                                  ORDER BY f.id), '[]')
           FROM refunds f WHERE f.invoice_id = i.id) AS refunds, co.id AS co_id, co.cnpj AS co_cnpj, co.company_type AS co_company_type, co.corporate_reason AS co_corporate_reason, co.fantasy_name AS co_fantasy_name, co.url_website AS co_url_website, co.email AS co_email, co.address_street AS co_address_street, co.address_number AS co_address_number, co.address_city AS co_address_city, co.address_postal_code AS co_address_postal_code, co.address_province AS co_address_province, co.address_state AS co_address_state, co.bank_account AS co_bank_account, co.bank_agency AS co_bank_agency, co.bank_digit AS co_bank_digit, co.bank_name AS co_bank_name, co.bank_type AS co_bank_type, co.blocked_system AS co_blocked_system, co.blocked_processing AS co_blocked_processing, co.blocked_pix AS co_blocked_pix, co.blocked_card AS co_blocked_card, co.blocked_bank_slip AS co_blocked_bank_slip, co.blocked_sake AS co_blocked_sake, co.fee_plan AS co_fee_plan, co.is_custom AS co_is_custom, co.pix_key AS co_pix_key, co.three_ds_activated_at IS NOT NULL AS co_is_active_3ds, fatura_ts(co.created_at) AS co_created_at, fatura_ts(co.updated_at) AS co_updated_at, 
  coalesce(b.pix, 0) AS balance_pix, coalesce(b.card, 0) AS balance_card,
  coalesce(b.bank_slip, 0) AS balance_bank_slip,
  (SELECT coalesce(sum(m.amount), 0) FROM company_paid_months m
    WHERE m.company_id = i.company_id AND m.mode = i.mode) AS amount_invoice_total,
  (SELECT coalesce(sum(m.amount), 0) FROM company_paid_months m
    WHERE m.company_id = i.company_id AND m.mode = i.mode
      AND m.month = fatura_paid_month($1::timestamptz)) AS amount_invoices_competicion
          FROM 
      invoices i
      JOIN clients c ON c.id = i.client_id
      LEFT JOIN card_references r ON r.id = i.card_reference_id
          JOIN companies co ON co.id = i.company_id
          LEFT JOIN company_balances b ON b.company_id = i.company_id AND b.mode = i.mode
          `

// Search Transaction, by secureId — InvoiceRepository.findWithCompany (Invoices.find): in one statement the invoice
// with its client, card reference, timeline, ledger movements and refunds, its company (columns prefixed `co_`), and
// the company's running balances and paid totals (this month in São Paulo), scoped to the key's company and mode.
export const SEARCH_BY_SECURE_ID = `${SEARCH_SELECT}WHERE i.secure_id = $2::uuid AND i.company_id = $3 AND i.mode = $4`

// Search Transaction, by numeric id — the same statement by `invoices.id`.
export const SEARCH_BY_ID = `${SEARCH_SELECT}WHERE i.id = $2 AND i.company_id = $3 AND i.mode = $4`

// Create Invoices — SqlTransactions: the transaction around CREATE_STEPS (ROLLBACK only when a step fails).
export const BEGIN = "BEGIN"
export const COMMIT = "COMMIT"
export const ROLLBACK = "ROLLBACK"

// Create Invoices, in the transaction — ClientRepository upsert: the payer as the company's client (one row per
// company, mode and document; a returning payer's name and email are updated).
export const UPSERT_CLIENT = `
          INSERT INTO clients (company_id, mode, document_type, document_number, name, email, phone, created_at,
                               updated_at)
          VALUES ($1, $2, $3, $4, $5,
                  $6, $7, $8::timestamptz, $9::timestamptz)
          ON CONFLICT (company_id, mode, document_number) DO UPDATE
            SET name = excluded.name, email = excluded.email, phone = coalesce(excluded.phone, clients.phone),
                updated_at = excluded.updated_at
          RETURNING id, name, email, phone, document_type, document_number,
            fatura_ts(created_at) AS created_at, fatura_ts(updated_at) AS updated_at`

// Create Invoices, in the transaction — InvoiceRepository.insert: the pending pix invoice with its fee split and
// BR Code, and its `invoice.created` timeline entry, in one statement.
export const INSERT_INVOICE = `
            WITH inserted AS (
            INSERT INTO invoices (secure_id, company_id, client_id, mode, method, status, amount, installments,
              refunded_amount, refused_reason, postback_url, traceable, ip, metadata, external_ref, items, payer,
              token_checkout, fee, pix_qr_code, pix_txid, pix_expires_at, boleto_barcode, boleto_digitable_line,
              boleto_due_date, boleto_url, boleto_bank_code, boleto_our_number, card, card_reference_id,
              created_at, updated_at, paid_at)
            VALUES ($1::uuid, $2, $3, $4, $5,
              $6, $7, $8, $9,
              $10, $11, $12, $13,
              $14::jsonb, $15,
              $16::jsonb, $17::jsonb,
              $18, $19::jsonb, $20,
              $21, $22::timestamptz,
              $23, $24, $25::date,
              $26, $27, $28,
              $29::jsonb, $30,
              $31::timestamptz, $32::timestamptz, $33::timestamptz)
            RETURNING id
            ), timeline AS (
              INSERT INTO invoice_timeline (invoice_id, status, event, created_at)
              SELECT inserted.id, entry.status, entry.event, $34::timestamptz
              FROM inserted, (VALUES ($35, $36, $37)) AS entry (n, status, event)
              ORDER BY entry.n
            )
            SELECT id FROM inserted`

// Create Invoices, in the transaction — PostbackRepository event: `invoice.created` with the whole invoice as data
// (the outbox the postbacks are delivered from).
export const INSERT_EVENT = `
            INSERT INTO events (id, company_id, invoice_id, type, livemode, data, created_at)
            VALUES ($1, $2, $3, $4, $5,
                    $6::jsonb, $7::timestamptz)`

/** Search Transaction by secureId, after authentication: one statement. */
export const SEARCH_BY_SECURE_ID_STEPS = [
  { name: "invoice", sql: SEARCH_BY_SECURE_ID, params: (ctx) => [ctx.now, ctx.id, ctx.companyId, ctx.mode] }
]

/** Search Transaction by numeric id, after authentication: one statement. */
export const SEARCH_BY_ID_STEPS = [
  { name: "invoice", sql: SEARCH_BY_ID, params: (ctx) => [ctx.now, ctx.id, ctx.companyId, ctx.mode] }
]

/** Create Invoices (pix), after authentication: the company and its totals, read before the transaction. */
export const CREATE_COMPANY_STEP = {
  name: "company",
  sql: COMPANY_WITH_TOTALS,
  params: (ctx) => [ctx.now, ctx.companyId, ctx.mode, ctx.companyId]
}

/** Create Invoices (pix), after authentication: these run in order between BEGIN and COMMIT on one connection. */
export const CREATE_STEPS = [
  {
    name: "client",
    sql: UPSERT_CLIENT,
    params: (ctx) => {
      const payer = ctx.body.payer
      return [
        ctx.companyId,
        ctx.mode,
        payer.documentType,
        payer.document,
        payer.name,
        payer.email,
        null,
        ctx.now,
        ctx.now
      ]
    }
  },
  {
    name: "invoice",
    sql: INSERT_INVOICE,
    params: (ctx) => {
      const invoice = ctx.invoice
      return [
        invoice.secureId,
        ctx.companyId,
        ctx.rows.client.id,
        ctx.mode,
        "pix",
        "pending",
        invoice.amount,
        1,
        0,
        null,
        null,
        false,
        null,
        null,
        null,
        JSON.stringify(invoice.items),
        JSON.stringify(invoice.payer),
        invoice.tokenCheckout,
        JSON.stringify(invoice.fee),
        invoice.pix.qrCode,
        invoice.pix.txid,
        invoice.pix.expiresAt,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        ctx.now,
        ctx.now,
        null,
        ctx.now,
        0,
        "pending",
        "invoice.created"
      ]
    }
  },
  {
    name: "event",
    sql: INSERT_EVENT,
    params: (ctx) => [
      ctx.invoice.eventId,
      ctx.companyId,
      ctx.rows.invoice.id,
      "invoice.created",
      ctx.mode === "live",
      JSON.stringify(ctx.response()),
      ctx.now
    ]
  }
]
