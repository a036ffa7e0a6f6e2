// The seeding of bench/growth.mjs: the three template invoices made through the API, and the set-based SQL that
// copies them into a company's history (see bench/growth.mjs for what it writes).

const minute = 60_000
/** Invoices per seeding statement, each its own transaction: the ledger trigger updates the company's one balance row
 * once per entry, and the versions that leave behind cannot be cleaned up until their transaction ends. */
export const chunk = 2_000

/** The time of invoice number `k` (1-based, in the order of their ids). */
export const timeline = (total) => {
  const base = Date.now() - 60 * minute - total * minute
  return (k) => new Date(base + k * minute).toISOString()
}

const seedStatement = `
  WITH picked AS (
    SELECT k,
      CASE WHEN h.m < 50 THEN 'pix' WHEN h.m < 80 THEN 'bank_slip' ELSE 'credit_card' END AS method, h.s, h.r,
      $3::timestamptz + k * interval '1 minute' AS created_at
    FROM generate_series($1::bigint, $2::bigint) AS k,
    LATERAL (SELECT abs(hashint8extended(k, 1)) % 100 AS m, abs(hashint8extended(k, 2)) % 1000 AS s,
                    abs(hashint8extended(k, 3)) % 10 AS r) AS h
  ), shaped AS (
    SELECT p.*,
      CASE p.method
        WHEN 'pix' THEN CASE WHEN p.s < 700 THEN 'paid' WHEN p.s < 730 THEN 'refunded'
                             WHEN p.s < 750 THEN 'partially_refunded' WHEN p.s < 950 THEN 'expired' ELSE 'pending' END
        WHEN 'bank_slip' THEN CASE WHEN p.s < 600 THEN 'paid' WHEN p.s < 620 THEN 'refunded'
                                   WHEN p.s < 950 THEN 'expired' ELSE 'pending' END
        ELSE CASE WHEN p.s < 800 THEN 'paid' WHEN p.s < 840 THEN 'refunded' WHEN p.s < 860 THEN 'partially_refunded'
                  WHEN p.s < 880 THEN 'chargedback' ELSE 'refused' END
      END AS status
    FROM picked p
  ), dated AS (
    SELECT s.*,
      CASE WHEN s.status IN ('paid', 'refunded', 'partially_refunded', 'chargedback')
           THEN s.created_at + CASE WHEN s.method = 'credit_card' THEN interval '0' ELSE interval '5 minutes' END
      END AS paid_at
    FROM shaped s
  ), inserted AS (
    INSERT INTO invoices (secure_id, company_id, client_id, mode, method, status, amount, installments,
      refunded_amount, refused_reason, postback_url, traceable, ip, metadata, external_ref, items, payer,
      token_checkout, fee, pix_qr_code, pix_txid, pix_expires_at, boleto_barcode, boleto_digitable_line,
      boleto_due_date, boleto_url, boleto_bank_code, boleto_our_number, card, card_reference_id,
      created_at, updated_at, paid_at)
    SELECT gen_random_uuid(), $4, $6 + d.k % $7, 'test', d.method, d.status, t.amount, t.installments,
      CASE d.status WHEN 'refunded' THEN t.amount WHEN 'partially_refunded' THEN t.amount / 2 ELSE 0 END,
      CASE WHEN d.status = 'refused' THEN 'card_declined' END,
      t.postback_url, t.traceable, t.ip, t.metadata, CASE WHEN d.r > 0 THEN 'order-' || d.k END, t.items, t.payer,
      md5(d.k || ' ' || random()), t.fee,
      t.pix_qr_code, CASE WHEN d.method = 'pix' THEN 'bench' || $4::bigint || 'n' || d.k END,
      CASE WHEN d.method = 'pix' THEN d.created_at + interval '1 day' END,
      t.boleto_barcode, t.boleto_digitable_line,
      CASE WHEN d.method = 'bank_slip' THEN (d.created_at + interval '3 days')::date END,
      t.boleto_url, t.boleto_bank_code, CASE WHEN d.method = 'bank_slip' THEN (90000000000 + $4::bigint * 100000000 + d.k)::text END,
      t.card, CASE WHEN d.method = 'credit_card' THEN $8::bigint END,
      d.created_at,
      CASE WHEN d.status IN ('refunded', 'partially_refunded', 'chargedback') THEN d.paid_at + interval '1 day'
           WHEN d.status = 'expired' THEN d.created_at + interval '1 day'
           ELSE coalesce(d.paid_at, d.created_at) END,
      d.paid_at
    FROM dated d JOIN invoices t ON t.company_id = $5 AND t.method = d.method
    ORDER BY d.k
    RETURNING id, method, status, amount, refunded_amount, fee, created_at, updated_at, paid_at
  ), due AS (
    -- Each paid invoice's one receivable (the templates' card is of one installment): a pix the day it was paid, a
    -- boleto the day after, a card 30 days after, weekends and holidays aside. What is due by today is available, as
    -- the sweep would have left it (and a charged back one, as if released first); its entries, and the negative
    -- receivable of what was taken back, are in its bucket, without the settlement entries.
    SELECT i.id,
      ((i.paid_at AT TIME ZONE 'America/Sao_Paulo')::date
        + CASE i.method WHEN 'pix' THEN 0 WHEN 'bank_slip' THEN 1 ELSE 30 END) AS payment_date
    FROM inserted i WHERE i.paid_at IS NOT NULL
  ), bucketed AS (
    SELECT i.*, d.payment_date,
      CASE WHEN i.status = 'chargedback' OR d.payment_date <= (now() AT TIME ZONE 'America/Sao_Paulo')::date
           THEN 'available' ELSE 'waiting' END AS bucket
    FROM inserted i LEFT JOIN due d ON d.id = i.id
  ), receivable AS (
    INSERT INTO receivables (company_id, mode, invoice_id, installment, amount, fee, net_amount, balance, status,
      payment_date, original_payment_date, created_at, updated_at)
    SELECT $4, 'test', b.id, 1, r.amount, r.fee, r.amount - r.fee,
      CASE WHEN b.method = 'credit_card' THEN 'card' ELSE b.method END,
      CASE WHEN b.bucket = 'available' THEN 'available' ELSE 'waiting_funds' END,
      b.payment_date, b.payment_date, b.paid_at, b.paid_at
    FROM bucketed b CROSS JOIN LATERAL (VALUES
      (0, b.amount, (b.fee ->> 'estimatedFee')::bigint),
      (1, -CASE WHEN b.status = 'chargedback' THEN b.amount ELSE b.refunded_amount END, 0)
    ) AS r (n, amount, fee)
    WHERE b.payment_date IS NOT NULL AND (r.n = 0 OR r.amount <> 0)
    ORDER BY b.id, r.n
  ), steps AS (
    SELECT i.id, i.method, i.amount, i.refunded_amount, i.fee, i.bucket, step.n, step.status, step.at
    FROM bucketed i CROSS JOIN LATERAL (VALUES
      (0, 'pending', i.created_at),
      (1, CASE WHEN i.status IN ('expired', 'refused') THEN i.status WHEN i.paid_at IS NOT NULL THEN 'paid' END,
          coalesce(i.paid_at, CASE WHEN i.status = 'expired' THEN i.updated_at ELSE i.created_at END)),
      (2, CASE WHEN i.status IN ('refunded', 'partially_refunded', 'chargedback') THEN i.status END, i.updated_at)
    ) AS step (n, status, at)
    WHERE step.status IS NOT NULL
  ), timeline AS (
    INSERT INTO invoice_timeline (invoice_id, status, event, created_at)
    SELECT id, status, CASE WHEN status = 'pending' THEN 'invoice.created' ELSE 'invoice.' || status END, at
    FROM steps ORDER BY id, n
  ), ledger AS (
    INSERT INTO ledger_entries (company_id, invoice_id, mode, type, direction, amount, balance, bucket, created_at)
    SELECT $4, s.id, 'test', m.type, m.direction, m.amount,
           CASE WHEN s.method = 'credit_card' THEN 'card' ELSE s.method END, s.bucket, s.at
    FROM steps s CROSS JOIN LATERAL (VALUES
      (0, 'paid', 'payment', 'credit', s.amount),
      (1, 'paid', 'fee', 'debit', (s.fee ->> 'estimatedFee')::bigint),
      (2, 'refunded', 'refund', 'debit', s.refunded_amount),
      (2, 'partially_refunded', 'refund', 'debit', s.refunded_amount),
      (3, 'chargedback', 'chargeback', 'debit', s.amount - s.refunded_amount)
    ) AS m (n, status, type, direction, amount)
    WHERE m.status = s.status
    ORDER BY s.at, s.id, m.n
  ), refunded AS (
    INSERT INTO refunds (invoice_id, amount, reason, created_at)
    SELECT id, refunded_amount, NULL, at FROM steps WHERE status IN ('refunded', 'partially_refunded') ORDER BY at, id
  ), recorded AS (
    INSERT INTO events (id, company_id, invoice_id, type, livemode, data, created_at)
    SELECT 'evt_' || gen_random_uuid(), $4, s.id,
           CASE WHEN s.status = 'pending' THEN 'invoice.created' ELSE 'invoice.' || s.status END, false, e.data, s.at
    FROM steps s
    JOIN (SELECT DISTINCT ON (i.method) i.method, e.data FROM events e JOIN invoices i ON i.id = e.invoice_id
          WHERE e.company_id = $5 ORDER BY i.method, e.seq DESC) AS e ON e.method = s.method
    ORDER BY s.at, s.id, s.n
  )
  SELECT count(*) AS invoices FROM inserted`

/**
 * Seeds invoices `from`..`to` (numbers in the company's history) into `companyId`, copying the invoices of
 * `templateCompanyId`; its payers rotate over the company's clients, its card invoices share `cardReferenceId`.
 */
export const seedInvoices = async (db, { companyId, templateCompanyId, cardReferenceId, clients, at, from, to }) => {
  for (let first = from; first <= to; first += chunk) {
    const last = Math.min(to, first + chunk - 1)
    await db.query(seedStatement, [
      first,
      last,
      at(0),
      companyId,
      templateCompanyId,
      clients.first,
      clients.count,
      cardReferenceId
    ])
  }
}

/**
 * How many invoices of a seeded history there are to a withdrawal: few enough that the small company's withdrawals fill
 * a page even 90 % down their list, as its invoices do, so that both sizes read pages of the same length.
 */
export const invoicesPerWithdrawal = 4

/**
 * One paid withdrawal per `invoicesPerWithdrawal` invoices of `companyId`'s history `from`..`to`, dated with the
 * invoice it follows: the rows the withdrawals list reads (their ledger entries are left out: the list does not read
 * them).
 */
export const seedWithdrawals = async (db, { companyId, at, from, to }) => {
  const first = Math.ceil(from / invoicesPerWithdrawal)
  const last = Math.floor(to / invoicesPerWithdrawal)
  if (last < first) return
  await db.query(
    `INSERT INTO withdrawals (id, company_id, mode, amount, fee, status, sources, destination, rail, end_to_end_id,
                              created_at, updated_at, sent_at, paid_at)
     SELECT 'wd_' || gen_random_uuid(), $1, 'test', 10000, 367, 'paid',
       '[{"balance":"pix","amount":10367}]'::jsonb,
       '{"bank":{"code":"001","name":"Banco do Brasil S.A.","agency":"0001","account":"12345678","digit":"9","type":"corrente"},"holderName":"Loja","holderDocument":"11444777000161"}'::jsonb,
       'pix', 'E00000000' || to_char($4::timestamptz + k * $5 * interval '1 minute', 'YYYYMMDDHH24MI') || lpad(k::text, 11, '0'),
       $4::timestamptz + k * $5 * interval '1 minute', $4::timestamptz + k * $5 * interval '1 minute',
       $4::timestamptz + k * $5 * interval '1 minute', $4::timestamptz + k * $5 * interval '1 minute'
     FROM generate_series($2::bigint, $3::bigint) AS k ORDER BY k`,
    [companyId, first, last, at(0), invoicesPerWithdrawal]
  )
}

/** The company's payers (one per 20 invoices) and the card reference its card invoices carry. */
export const seedPayers = async (db, { companyId, templateCompanyId, count, at }) => {
  const { rows } = await db.query(
    `INSERT INTO clients (company_id, mode, document_type, document_number, name, email, created_at, updated_at)
     SELECT $1, 'test', 'cpf', lpad(n::text, 11, '0'), 'Cliente ' || n, 'cliente' || n || '@example.com', $3, $3
     FROM generate_series(1, $2::bigint) AS n ORDER BY n
     RETURNING id`,
    [companyId, count, at(0)]
  )
  // One statement on a database nobody else writes: the ids are consecutive, which the seeding's rotation relies on.
  const first = rows.reduce((lowest, row) => Math.min(lowest, Number(row.id)), Number.POSITIVE_INFINITY)
  const reference = await db.query(
    `INSERT INTO card_references (company_id, client_id, brand, first_digits, last_digits, expiration_month,
                                  expiration_year, created_at)
     SELECT $1, $2, brand, first_digits, last_digits, expiration_month, expiration_year, $3
     FROM card_references WHERE company_id = $4 LIMIT 1
     RETURNING id`,
    [companyId, first, at(0), templateCompanyId]
  )
  return { clients: { first, count }, cardReferenceId: Number(reference.rows[0].id) }
}

/** Invoices through the API, in the company of `key`: the three that the seeding copies. */
export const makeTemplates = async (url, key) => {
  const call = async (path, body, status) => {
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    const text = await response.text()
    if (response.status !== status) throw new Error(`POST ${path}: ${response.status} ${text.slice(0, 300)}`)
    return JSON.parse(text)
  }
  const payer = { name: "Maria Souza", cpf_cnpj: "529.982.247-25", email: "maria@example.com" }
  const pix = await call(
    "/api/v2/invoices",
    {
      method: "pix",
      total_price_cents: 12345,
      external_ref: "template-pix",
      metadata: { order: "1" },
      payer,
      items: [{ name: "Pão de queijo", quantity: 3, unit_price: 4115 }]
    },
    201
  )
  await call(
    "/api/v2/invoices",
    {
      method: "bank_slip",
      total_price_cents: 25000,
      external_ref: "template-slip",
      payer: {
        ...payer,
        address_zip: "01310100",
        address_line: "Av. Paulista",
        address_number: "1000",
        address_city: "São Paulo",
        address_state: "SP"
      },
      items: [{ name: "Cesta", quantity: 1, unit_price: 25000 }]
    },
    201
  )
  await call(
    "/api/v2/invoices",
    {
      method: "credit_card",
      total_price_cents: 9900,
      external_ref: "template-card",
      payer,
      items: [{ name: "Assinatura", quantity: 1, unit_price: 9900 }],
      card: {
        number: "4111111111111111",
        first_name: "Maria",
        last_name: "Souza",
        month: "12",
        year: String(new Date().getFullYear() + 3),
        security_code: "123"
      }
    },
    201
  )
  await call("/api/v2/sandbox/invoices/pay", { id: pix.secureId }, 200)
  return pix.companyId
}

/** The company of `key`, as the API says. */
export const companyIdOf = async (url, key) => {
  const response = await fetch(`${url}/api/v2/company`, { headers: { authorization: `Bearer ${key}` } })
  if (response.status !== 200) throw new Error(`GET /api/v2/company: ${response.status}`)
  return (await response.json()).id
}
