// The texts of the statements a pix create and a Search send, with numbered parameters ($1, $2, …) whose meaning
// each one's comment lists. The repositories run them (`sql.unsafe(text, params)`); the bench's hand-written baseline
// (bench/baseline.mjs) reads them from the `@fatura/persistence/statements` entry, so that it sends what the service
// sends. Plain strings only: this module imports nothing.

/** The company columns of table alias `alias`, named with `prefix` so that they can sit beside another table's. */
export const companyColumnList = (alias: string, prefix = "") =>
  (
    "id cnpj company_type corporate_reason fantasy_name url_website email address_street address_number address_city " +
    "address_postal_code address_province address_state bank_account bank_agency bank_code bank_digit bank_name " +
    "bank_type blocked_system blocked_processing blocked_pix blocked_card blocked_bank_slip blocked_sake fee_plan " +
    "is_custom pix_key auto_withdrawal"
  )
    .split(" ")
    .map((column) => `${alias}.${column} AS ${prefix}${column}`)
    .concat([
      `${alias}.three_ds_activated_at IS NOT NULL AS ${prefix}is_active_3ds`,
      `fatura_ts(${alias}.created_at) AS ${prefix}created_at`,
      `fatura_ts(${alias}.updated_at) AS ${prefix}updated_at`
    ])
    .join(", ")

/** The columns of an API key of alias `k`. */
export const keyColumnList = `
  k.id AS key_id, k.company_id AS key_company_id, k.kind AS key_kind, k.mode AS key_mode, k.prefix AS key_prefix,
  fatura_ts(k.created_at) AS key_created_at, fatura_ts(k.revoked_at) AS key_revoked_at`

/**
 * The balances and paid totals of the company and mode of the row `owner` (any alias with `company_id` and `mode`),
 * with `company_balances b` joined by `joinBalancesText(owner)`; the competition month is the São Paulo month of the
 * timestamp parameter `now` (such as `$1`).
 */
const totalsColumnList = (owner: string, now: string) => `
  coalesce(b.pix, 0) AS balance_pix, coalesce(b.card, 0) AS balance_card,
  coalesce(b.bank_slip, 0) AS balance_bank_slip, coalesce(b.waiting_pix, 0) AS waiting_pix,
  coalesce(b.waiting_card, 0) AS waiting_card, coalesce(b.waiting_bank_slip, 0) AS waiting_bank_slip,
  (SELECT coalesce(sum(m.amount), 0) FROM company_paid_months m
    WHERE m.company_id = ${owner}.company_id AND m.mode = ${owner}.mode) AS amount_invoice_total,
  (SELECT coalesce(sum(m.amount), 0) FROM company_paid_months m
    WHERE m.company_id = ${owner}.company_id AND m.mode = ${owner}.mode
      AND m.month = fatura_paid_month(${now}::timestamptz)) AS amount_invoices_competicion`

const joinBalancesText = (owner: string) =>
  `LEFT JOIN company_balances b ON b.company_id = ${owner}.company_id AND b.mode = ${owner}.mode`

/** The columns of an invoice's row (`InvoiceRow`), over `invoiceTables`. */
export const invoiceColumns = `
      i.id, i.secure_id::text AS secure_id, i.company_id, i.mode, i.method, i.status, i.amount,
        i.installments, i.refunded_amount, i.refused_reason, i.postback_url, i.traceable, i.ip, i.metadata,
        i.external_ref, i.items, i.payer, i.token_checkout, i.fee, i.pix_qr_code, i.pix_txid,
        i.pix_end_to_end_id, fatura_ts(i.pix_expires_at) AS pix_expires_at, fatura_ts(i.created_at) AS created_at,
        fatura_ts(i.updated_at) AS updated_at, fatura_ts(i.paid_at) AS paid_at,
        i.boleto_barcode, i.boleto_digitable_line, to_char(i.boleto_due_date, 'YYYY-MM-DD') AS boleto_due_date,
        i.boleto_url, i.boleto_bank_code, i.boleto_our_number, i.card, i.card_reference_id,
        r.brand AS card_reference_brand, r.last_digits AS card_reference_last_digits,
        fatura_ts(r.created_at) AS card_reference_created_at,
        c.id AS client_id, c.name AS client_name, c.email AS client_email, c.phone AS client_phone,
        c.document_type AS client_document_type, c.document_number AS client_document_number,
        fatura_ts(c.created_at) AS client_created_at, fatura_ts(c.updated_at) AS client_updated_at,
        (SELECT coalesce(json_agg(json_build_object('status', t.status, 'event', t.event,
                                                    'created_at', fatura_ts(t.created_at), 'detail', t.detail)
                                  ORDER BY t.id), '[]')
           FROM invoice_timeline t WHERE t.invoice_id = i.id) AS timeline,
        (SELECT g.status FROM boleto_registrations g WHERE g.invoice_id = i.id) AS boleto_registration,
        (SELECT coalesce(json_agg(json_build_object('id', l.id, 'type', l.type, 'direction', l.direction,
                                                    'amount', l.amount, 'balance', l.balance, 'bucket', l.bucket,
                                                    'created_at', fatura_ts(l.created_at)) ORDER BY l.id), '[]')
           FROM ledger_entries l WHERE l.invoice_id = i.id) AS movements,
        (SELECT coalesce(json_agg(json_build_object('id', f.id, 'amount', f.amount, 'reason', f.reason,
                                                    'status', f.status, 'failure_reason', f.failure_reason,
                                                    'created_at', fatura_ts(f.created_at))
                                  ORDER BY f.id), '[]')
           FROM refunds f WHERE f.invoice_id = i.id) AS refunds`

/** An invoice's row with its client's and its card reference's. */
export const invoiceTables = `
      invoices i
      JOIN clients c ON c.id = i.client_id
      LEFT JOIN card_references r ON r.id = i.card_reference_id`

/** A key and its company by the key's sha256 (authentication): $1 the hash. */
export const keyByHash = `
          SELECT ${keyColumnList}, ${companyColumnList("c")}
          FROM api_keys k JOIN companies c ON c.id = k.company_id
          WHERE k.hash = $1`

/** A company's running totals: $1 now, $2 the company's id, $3 the mode. */
export const companyTotals = `
          SELECT ${totalsColumnList("o", "$1")}
          FROM (VALUES ($2::bigint, $3::text)) AS o (company_id, mode) ${joinBalancesText("o")}`

/** A company as it is now with its running totals (a create's first statement): $1 now, $2 its id, $3 the mode. */
export const companyWithTotals = `
          SELECT ${companyColumnList("c")}, ${totalsColumnList("o", "$1")}
          FROM companies c
          CROSS JOIN (VALUES ($2::bigint, $3::text)) AS o (company_id, mode) ${joinBalancesText("o")}
          WHERE c.id = $2`

const invoiceWithCompany = (condition: string) => `
          SELECT ${invoiceColumns}, ${companyColumnList("co", "co_")}, ${totalsColumnList("i", "$1")}
          FROM ${invoiceTables}
          JOIN companies co ON co.id = i.company_id
          ${joinBalancesText("i")}
          WHERE ${condition} AND i.company_id = $3 AND i.mode = $4`

/**
 * A Search: the invoice whole, its company (columns prefixed `co_`) and the company's running totals, scoped to a
 * company and mode. $1 now, $2 the invoice's numeric id, $3 the company's id, $4 the mode.
 */
export const invoiceWithCompanyById = invoiceWithCompany("i.id = $2")

/** As `invoiceWithCompanyById`, with $2 the invoice's secure id. */
export const invoiceWithCompanyBySecureId = invoiceWithCompany("i.secure_id = $2::uuid")

/**
 * The payer as the company's client (one row per company, mode and document; a returning payer's name and email are
 * updated): $1 company, $2 mode, $3 document type, $4 document number, $5 name, $6 email, $7 phone, $8 now.
 */
export const upsertClient = `
          INSERT INTO clients (company_id, mode, document_type, document_number, name, email, phone, created_at,
                               updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz, $8::timestamptz)
          ON CONFLICT (company_id, mode, document_number) DO UPDATE
            SET name = excluded.name, email = excluded.email, phone = coalesce(excluded.phone, clients.phone),
                updated_at = excluded.updated_at
          RETURNING id, name, email, phone, document_type, document_number,
            fatura_ts(created_at) AS created_at, fatura_ts(updated_at) AS updated_at`

/** The columns an invoice is inserted with, in the order of `insertInvoice`'s parameters $1 to $33. */
export const insertedInvoiceColumns = [
  "secure_id",
  "company_id",
  "client_id",
  "mode",
  "method",
  "status",
  "amount",
  "installments",
  "refunded_amount",
  "refused_reason",
  "postback_url",
  "traceable",
  "ip",
  "metadata",
  "external_ref",
  "items",
  "payer",
  "token_checkout",
  "fee",
  "pix_qr_code",
  "pix_txid",
  "pix_expires_at",
  "boleto_barcode",
  "boleto_digitable_line",
  "boleto_due_date",
  "boleto_url",
  "boleto_bank_code",
  "boleto_our_number",
  "card",
  "card_reference_id",
  "created_at",
  "updated_at",
  "paid_at"
] as const

const insertedInvoiceCasts: Partial<Record<(typeof insertedInvoiceColumns)[number], string>> = {
  secure_id: "::uuid",
  metadata: "::jsonb",
  items: "::jsonb",
  payer: "::jsonb",
  fee: "::jsonb",
  pix_expires_at: "::timestamptz",
  boleto_due_date: "::date",
  card: "::jsonb",
  created_at: "::timestamptz",
  updated_at: "::timestamptz",
  paid_at: "::timestamptz"
}

/** A receivable's values, in the order `insertInvoice` takes them. */
const receivableColumns = "installment amount fee net_amount balance status payment_date original_payment_date".split(
  " "
)

const receivableCasts = ["::int", "::bigint", "::bigint", "::bigint", "", "", "::date", "::date"]

/**
 * The history writer's insert (InvoiceStatements.writeHistory's shape): an invoice, its first `timelineEntries`
 * timeline entries, its first `ledgerEntries` ledger entries and its first `receivables` receivables in one statement,
 * returning its id, its ledger entries' ids (a JSON array, in their order) and a null refund id. $1 to $33 the columns
 * of `insertedInvoiceColumns`, then for each timeline entry, in order, its status and its event, then for each ledger
 * entry its type, direction, amount, balance and bucket, then for each receivable its `receivableValues`. The invoice's
 * row is written first; the entries are dated `created_at` and their ids follow their order.
 */
export const insertInvoice = (timelineEntries: number, ledgerEntries = 0, receivables = 0) => {
  const ledgerFrom = 34 + 2 * timelineEntries
  const receivablesFrom = ledgerFrom + 5 * ledgerEntries
  const timeline = Array.from({ length: timelineEntries }, (_, n) => `(${n}, $${34 + 2 * n}, $${35 + 2 * n})`)
  const ledger = Array.from({ length: ledgerEntries }, (_, n) => {
    const p = ledgerFrom + 5 * n
    return `(${n}, $${p}, $${p + 1}, $${p + 2}::bigint, $${p + 3}, $${p + 4})`
  })
  const scheduled = Array.from({ length: receivables }, (_, n) => {
    const p = receivablesFrom + receivableColumns.length * n
    return `(${n}, ${receivableColumns.map((_, k) => `$${p + k}${receivableCasts[k]}`).join(", ")})`
  })
  return `
            WITH invoice AS (
            INSERT INTO invoices (${insertedInvoiceColumns.join(", ")})
            VALUES (${insertedInvoiceColumns.map((column, n) => `$${n + 1}${insertedInvoiceCasts[column] ?? ""}`).join(", ")})
            RETURNING id
            )${
              timelineEntries === 0
                ? ""
                : `, timeline AS (
              INSERT INTO invoice_timeline (invoice_id, status, event, created_at)
              SELECT (SELECT id FROM invoice), entry.status, entry.event, $31::timestamptz
              FROM (VALUES ${timeline.join(", ")}) AS entry (n, status, event)
              ORDER BY entry.n
            )`
            }${
              ledgerEntries === 0
                ? ""
                : `, ledger AS (
              INSERT INTO ledger_entries (company_id, invoice_id, mode, type, direction, amount, balance, bucket,
                created_at)
              SELECT $2, (SELECT id FROM invoice), $4, entry.type, entry.direction, entry.amount, entry.balance,
                entry.bucket, $31::timestamptz
              FROM (VALUES ${ledger.join(", ")}) AS entry (n, type, direction, amount, balance, bucket)
              ORDER BY entry.n
              RETURNING id
            )`
            }${
              receivables === 0
                ? ""
                : `, receivables AS (
              INSERT INTO receivables (company_id, mode, invoice_id, ${receivableColumns.join(", ")}, created_at,
                updated_at)
              SELECT $2, $4, (SELECT id FROM invoice), ${receivableColumns.map((column) => `r.${column}`).join(", ")},
                $31::timestamptz, $31::timestamptz
              FROM (VALUES ${scheduled.join(", ")}) AS r (n, ${receivableColumns.join(", ")})
              ORDER BY r.n
            )`
            }
            SELECT (SELECT id FROM invoice) AS id,
              ${ledgerEntries === 0 ? "'[]'::json" : "(SELECT json_agg(id ORDER BY id) FROM ledger)"} AS movements,
              NULL::bigint AS refund_id`
}

/**
 * An event with its deliveries (the outbox, SPEC 8.1–8.2), in one statement: $1 its id, $2 company, $3 invoice, $4
 * type, $5 livemode, $6 data (JSON), $7 created at, $8 reason (or null); $9 the invoice's postback URL (or null);
 * $10–$12 the patterns that match its type (`WebhookEndpoint.patternsMatching`). A delivery is queued to the postback
 * URL and to every endpoint of the company and mode subscribed to one of those patterns, one per distinct URL: the
 * postback URL first, then the oldest endpoint.
 */
export const insertEvent = `
            WITH event AS (
              INSERT INTO events (id, company_id, invoice_id, type, livemode, data, created_at, reason)
              VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::timestamptz, $8)
              RETURNING id, company_id, created_at
            ), target AS (
              SELECT DISTINCT ON (url) endpoint_id, url, rank, subscribed_at
              FROM (
                SELECT NULL::text AS endpoint_id, $9::text AS url, 0 AS rank, NULL::timestamptz AS subscribed_at
                WHERE $9::text IS NOT NULL
                UNION ALL
                SELECT id, url, 1, created_at FROM webhook_endpoints
                WHERE company_id = $2 AND mode = CASE WHEN $5 THEN 'live' ELSE 'test' END AND deleted_at IS NULL
                  AND events && ARRAY[$10::text, $11::text, $12::text]
              ) AS candidate
              ORDER BY url, rank, subscribed_at, endpoint_id
            )
            INSERT INTO deliveries (event_id, company_id, endpoint_id, url, status, next_attempt_at, created_at,
                                    updated_at)
            SELECT event.id, event.company_id, target.endpoint_id, target.url, 'pending', event.created_at,
                   event.created_at, event.created_at
            FROM event CROSS JOIN target
            ORDER BY target.rank, target.subscribed_at, target.endpoint_id`
