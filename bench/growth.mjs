// `pnpm bench --invoices N`: what the reads of one company cost as its history grows. A company of BENCH_SEED
// invoices is measured alone; then a company of N, alongside the small one (request by request in turn, so that both
// see the same load on a shared machine); then the plans of the large company's list queries are shown.
//
// Invoices are seeded with set-based SQL that goes through the schema's triggers (running balances and paid months,
// foreign keys). They are copies of three made through the API (a pix, a bank slip and a card invoice of a third
// company), so that every row reads back and renders like a real one; what varies is their status, time,
// external_ref and payer. One invoice a minute, the newest an hour ago; each with the timeline, ledger entries,
// refunds and events its status implies, written in the order the service would write them.

const minute = 60_000
/** Invoices per seeding statement, each its own transaction: the ledger trigger updates the company's one balance row
 * once per entry, and the versions that leave behind cannot be cleaned up until their transaction ends. */
const chunk = 2_000

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
  ), steps AS (
    SELECT i.id, i.method, i.amount, i.refunded_amount, i.fee, step.n, step.status, step.at
    FROM inserted i CROSS JOIN LATERAL (VALUES
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
    INSERT INTO ledger_entries (company_id, invoice_id, mode, type, direction, amount, balance, created_at)
    SELECT $4, s.id, 'test', m.type, m.direction, m.amount,
           CASE WHEN s.method = 'credit_card' THEN 'card' ELSE s.method END, s.at
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

// ---- the statements whose plans are shown: quoted from the repositories, checked against the service's answers ----

/** SqlInvoiceRepository's `list`, as it reaches Postgres (the cursor's id is one parameter here, three there). */
export const listStatement = (filter) => {
  const values = [filter.companyId, "test"]
  const param = (value) => {
    values.push(value)
    return `$${values.length}`
  }
  const conditions = ["i.company_id = $1", "i.mode = $2"]
  if (filter.beforeId !== undefined) {
    const id = param(filter.beforeId)
    const cursorCreatedAt = `(SELECT created_at FROM invoices WHERE id = ${id})`
    conditions.push(`i.created_at <= ${cursorCreatedAt}`, `(i.created_at < ${cursorCreatedAt} OR i.id < ${id})`)
  }
  if (filter.status !== undefined) conditions.push(`i.status = ${param(filter.status)}`)
  if (filter.method !== undefined) conditions.push(`i.method = ${param(filter.method)}`)
  if (filter.createdGte !== undefined) conditions.push(`i.created_at >= ${param(filter.createdGte)}::timestamptz`)
  if (filter.createdLte !== undefined) conditions.push(`i.created_at <= ${param(filter.createdLte)}::timestamptz`)
  if (filter.externalRef !== undefined) conditions.push(`i.external_ref = ${param(filter.externalRef)}`)
  const text = `
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
         FROM refunds f WHERE f.invoice_id = i.id) AS refunds
    FROM
      invoices i
      JOIN clients c ON c.id = i.client_id
      LEFT JOIN card_references r ON r.id = i.card_reference_id
    WHERE ${conditions.join(" AND ")}
    ORDER BY i.created_at DESC, i.id DESC
    LIMIT ${param(21)}`
  return { text, values }
}

/** SqlPostbackRepository's `listEvents`, first page, as it reaches Postgres. */
export const eventsStatement = (companyId) => ({
  text: `
    SELECT e.id, e.type, fatura_ts(e.created_at) AS created_at, e.livemode, e.data FROM events e
    WHERE e.company_id = $1 AND e.livemode = $2
    ORDER BY e.seq DESC
    LIMIT $3`,
  values: [companyId, false, 21]
})

// ---- measuring ----

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

/**
 * The reads measured when the company has invoices 1..`count` of its history: what each asks the service, the
 * statement behind it when it is a list, and how many rows its first page must hold.
 */
const readsAt = async (db, { companyId, count, at }) => {
  const { rows } = await db.query(
    `SELECT min(id) AS first, max(id) AS last FROM invoices WHERE company_id = $1 AND mode = 'test'`,
    [companyId]
  )
  const first = Number(rows[0].first)
  const last = Number(rows[0].last)
  // A hundred invoices spread over the whole history, for the lookups by id and by external_ref.
  const spread = Array.from({ length: 100 }, (_, n) => first + Math.floor(((last - first) * n) / 99))
  const sample = (
    await db.query(
      `SELECT id, secure_id::text AS secure_id, external_ref FROM invoices WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [spread]
    )
  ).rows
  const withRef = sample.filter((row) => row.external_ref !== null)
  // The cursor of a walk that has gone 90 % of the way down the list: an invoice a tenth of the way into the history.
  const cursor = (
    await db.query("SELECT id, secure_id::text AS secure_id FROM invoices WHERE id = $1", [
      first + Math.floor(count / 10)
    ])
  ).rows[0]
  const middle = at(Math.floor(count / 2))
  // `rows`: how many the first page holds, where the seeding fixes it.
  const list = (name, query, filter, rows) => ({
    name,
    paths: (n) => `/api/v2/invoices/list${typeof query === "function" ? query(n) : query}`,
    statement: listStatement({ companyId, ...filter }),
    rows
  })
  return [
    { name: "Search (`?id=`)", paths: (n) => `/api/v2/invoices?id=${sample[n % sample.length].secure_id}` },
    list("List, first page", "", {}, 20),
    list(
      "List, a page 90 % down a cursor walk",
      `?starting_after=${cursor.secure_id}`,
      { beforeId: Number(cursor.id) },
      20
    ),
    list(
      "List `external_ref=`",
      (n) => `?external_ref=${withRef[n % withRef.length].external_ref}`,
      { externalRef: withRef[0].external_ref },
      1
    ),
    list("List `status=paid`", "?status=paid", { status: "paid" }),
    list("List `status=refunded` (3 % of invoices)", "?status=refunded", { status: "refunded" }),
    list("List `payment_method=bank_slip`", "?payment_method=bank_slip", { method: "bank_slip" }),
    list(
      "List `created_gte=` 10 min ago (11 invoices)",
      `?created_gte=${at(count - 10)}`,
      { createdGte: at(count - 10) },
      11
    ),
    list("List `created_lte=` mid-history", `?created_lte=${middle}`, { createdLte: middle }, 20),
    list(
      "List `created_gte=`…`created_lte=` one hour mid-history",
      `?created_gte=${at(Math.floor(count / 2) - 60)}&created_lte=${middle}`,
      { createdGte: at(Math.floor(count / 2) - 60), createdLte: middle },
      20
    ),
    list("List `status=paid&payment_method=credit_card`", "?status=paid&payment_method=credit_card", {
      status: "paid",
      method: "credit_card"
    }),
    list(
      "List `status=paid&created_lte=` mid-history, after a cursor",
      `?status=paid&created_lte=${middle}&starting_after=${cursor.secure_id}`,
      { beforeId: Number(cursor.id), status: "paid", createdLte: middle }
    ),
    { name: "Events list", paths: () => "/api/v2/events", statement: eventsStatement(companyId), rows: 20 },
    { name: "Company Infos", paths: () => "/api/v2/company" }
  ]
}

/** The rows a list statement returns, as the page's ids; undefined for a read that is no list. */
const expectedPage = async (db, read) => {
  if (read.statement === undefined) return undefined
  const { rows } = await db.query(read.statement.text, read.statement.values)
  const ids = rows.slice(0, 20).map((row) => String(row.id))
  if (read.rows !== undefined && ids.length !== read.rows) {
    throw new Error(`${read.name}: ${ids.length} rows where the seeding makes ${read.rows}`)
  }
  return ids
}

/**
 * Times each read of each company: `warmup` untimed requests, then `samples` timed ones, one at a time on one
 * keep-alive connection, taking the companies in turn request by request so that they share whatever else the machine
 * is doing. The first page a list answers must be the rows of its quoted statement, in the same order.
 */
const measure = async (db, companies, { url, warmup, samples }) => {
  const results = companies.map(() => [])
  for (const [n, read] of companies[0].reads.entries()) {
    const targets = []
    for (const company of companies) {
      const own = company.reads[n]
      targets.push({ key: company.key, read: own, expected: await expectedPage(db, own), latencies: [] })
    }
    const get = async (target, sample) => {
      const path = target.read.paths(sample)
      const started = performance.now()
      const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${target.key}` } })
      const body = await response.text()
      const elapsed = performance.now() - started
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 300)}`)
      if (sample === 0 && target.expected !== undefined) {
        const listed = JSON.parse(body).data.map((item) => String(item.id))
        if (JSON.stringify(listed) !== JSON.stringify(target.expected)) {
          throw new Error(
            `${read.name}: GET ${path} listed ${listed} where the quoted statement gives ${target.expected}`
          )
        }
      }
      return elapsed
    }
    for (let sample = 0; sample < warmup; sample++) for (const target of targets) await get(target, sample)
    for (let sample = 0; sample < samples; sample++) {
      const order = sample % 2 === 0 ? targets : [...targets].reverse()
      for (const target of order) target.latencies.push(await get(target, sample))
    }
    for (const [c, target] of targets.entries()) {
      const sorted = target.latencies.sort((a, b) => a - b)
      results[c].push({ name: read.name, p50: percentile(sorted, 50), p99: percentile(sorted, 99) })
    }
  }
  return results
}

/**
 * The plan of a statement as the service runs it: prepared (as the service's client prepares every statement) and
 * executed ten times. From the sixth run on Postgres has weighed a generic plan against the custom ones and settled;
 * the last plan is shown, with the median execution time of the last five.
 */
const planOf = async (db, statement) => {
  await db.query("DEALLOCATE ALL")
  try {
    await db.query(`PREPARE measured AS ${statement.text}`)
    const literal = (value) => (typeof value === "number" || typeof value === "boolean" ? String(value) : `'${value}'`)
    const execute = `EXPLAIN (ANALYZE, BUFFERS) EXECUTE measured(${statement.values.map(literal).join(", ")})`
    const plans = []
    for (let run = 1; run <= 10; run++) {
      plans.push((await db.query(execute)).rows.map((row) => row["QUERY PLAN"]).join("\n"))
    }
    const settled = plans.slice(5)
    const times = settled.map((plan) => Number(/Execution Time: ([\d.]+) ms/.exec(plan)[1])).sort((a, b) => a - b)
    return { plan: settled[settled.length - 1], medianMs: times[2] }
  } finally {
    await db.query("DEALLOCATE ALL")
  }
}

/** Invoices through the API, in the company of `key`: the three that the seeding copies. */
const makeTemplates = async (url, key) => {
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

const companyIdOf = async (url, key) => {
  const response = await fetch(`${url}/api/v2/company`, { headers: { authorization: `Bearer ${key}` } })
  if (response.status !== 200) throw new Error(`GET /api/v2/company: ${response.status}`)
  return (await response.json()).id
}

const fixed = (value) => value.toFixed(1)
const seconds = (since) => (Date.now() - since) / 1000

/**
 * The whole study, on a running service over a fresh database with three companies (their secret keys): the first
 * gets the templates; the second `small` invoices, measured alone; the third `total`, measured alongside the second.
 */
export const study = async ({ db, url, keys, small, total, warmup, samples, target, log }) => {
  const templateCompanyId = await makeTemplates(url, keys[0])
  const settle = async () => {
    const started = Date.now()
    await db.query("VACUUM ANALYZE")
    return seconds(started)
  }
  const seeded = async (key, count, progress) => {
    const companyId = await companyIdOf(url, key)
    const at = timeline(count)
    const payers = await seedPayers(db, {
      companyId,
      templateCompanyId,
      count: Math.max(100, Math.ceil(count / 20)),
      at
    })
    const step = Math.max(chunk, Math.ceil(count / 20 / chunk) * chunk)
    const started = Date.now()
    for (let from = 1; from <= count; from += step) {
      const to = Math.min(count, from + step - 1)
      await seedInvoices(db, { companyId, templateCompanyId, ...payers, at, from, to })
      if (progress) log(`seeded ${to} invoices (${(to / seconds(started)).toFixed(0)} invoices/s)`)
    }
    return { companyId, key, count, at, seedSeconds: seconds(started) }
  }
  const withReads = async (company) => ({ ...company, reads: await readsAt(db, company) })
  const options = { url, warmup, samples }

  const smaller = await seeded(keys[1], small, false)
  log(
    `seeded ${small} invoices in ${smaller.seedSeconds.toFixed(1)} s; VACUUM ANALYZE ${(await settle()).toFixed(1)} s`
  )
  const [alone] = await measure(db, [await withReads(smaller)], options)
  log(`measured the company of ${small} invoices`)

  const larger = await seeded(keys[2], total, true)
  const vacuumSeconds = await settle()
  log(`VACUUM ANALYZE ${vacuumSeconds.toFixed(1)} s`)
  const largerReads = await withReads(larger)
  const [grown, alongside] = await measure(db, [largerReads, await withReads(smaller)], options)
  log(`measured the company of ${total} invoices, alongside the one of ${small}`)

  const sizes = (
    await db.query(
      `SELECT (SELECT count(*) FROM events WHERE company_id = $1) AS events,
              (SELECT count(*) FROM ledger_entries WHERE company_id = $1) AS ledger_entries,
              pg_size_pretty(pg_database_size(current_database())) AS database`,
      [larger.companyId]
    )
  ).rows[0]
  // The database's side of each list: its time and the pages it touched, at both sizes, from the plans.
  const smallerReads = await withReads(smaller)
  const plans = []
  const database = []
  for (const [n, read] of largerReads.reads.entries()) {
    if (read.statement === undefined) continue
    const large = await planOf(db, read.statement)
    const small = await planOf(db, smallerReads.reads[n].statement)
    plans.push(`#### ${read.name}\n\n\`\`\`\n${large.plan}\n\`\`\``)
    const summary = ({ plan, medianMs }) =>
      `${medianMs.toFixed(2)} ms, ${/^\s*Buffers: (.*)$/m.exec(plan)[1].replace("shared ", "")}`
    database.push(`| ${read.name} | ${summary(small)} | ${summary(large)} |`)
  }

  const smallLabel = small.toLocaleString("en-US")
  const totalLabel = total.toLocaleString("en-US")
  const mark = (ratio) => `${ratio <= target ? "PASS" : "MISS"} (${ratio.toFixed(2)})`
  const lines = [
    `A company of ${smallLabel} invoices, measured alone; then one of ${totalLabel} (${sizes.events} events, ` +
      `${sizes.ledger_entries} ledger entries; database ${sizes.database}), seeded in ` +
      `${(larger.seedSeconds / 60).toFixed(1)} min (${(total / larger.seedSeconds).toFixed(0)} invoices/s) plus ` +
      `${vacuumSeconds.toFixed(0)} s of VACUUM ANALYZE, measured alongside the first: request by request in turn, ` +
      `so that both see the same load. Each read: ${warmup} warm-up and ${samples} timed requests, one at a time on ` +
      "one keep-alive connection. Targets on p50.",
    "",
    `| Read | p50 / p99 ms, ${smallLabel} alone | p50 / p99 ms, ${totalLabel} | p50 / p99 ms, ${smallLabel} alongside | ` +
      `${totalLabel} ÷ ${smallLabel} alone ≤ ${target} | ${totalLabel} ÷ ${smallLabel} alongside ≤ ${target} |`,
    "|---|--:|--:|--:|---|---|"
  ]
  for (const [n, read] of grown.entries()) {
    const before = alone[n]
    const beside = alongside[n]
    lines.push(
      `| ${read.name} | ${fixed(before.p50)} / ${fixed(before.p99)} | ${fixed(read.p50)} / ${fixed(read.p99)} | ` +
        `${fixed(beside.p50)} / ${fixed(beside.p99)} | ${mark(read.p50 / before.p50)} | ${mark(read.p50 / beside.p50)} |`
    )
  }
  lines.push(
    "",
    "The statements behind the lists, as the database runs them (EXPLAIN ANALYZE of the prepared statement): " +
      "median execution time of its 6th to 10th runs, and the buffers its top node touched.",
    "",
    `| Statement | ${smallLabel} | ${totalLabel} |`,
    "|---|--:|--:|",
    ...database,
    "",
    "Every list's first page equals what its quoted statement returns. Plans of the company of " +
      `${totalLabel} invoices, prepared as the service prepares them, at their tenth run:`,
    "",
    ...plans
  )
  return lines.join("\n")
}
