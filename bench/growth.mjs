// `pnpm bench --invoices N`: what the reads of one company cost as its history grows. A company of BENCH_SEED
// invoices is measured alone; then a company of N, alongside the small one (request by request in turn, so that both
// see the same load on a shared machine); then the plans of the large company's list queries are shown.
//
// Invoices are seeded with set-based SQL that goes through the schema's triggers (running balances and paid months,
// foreign keys). They are copies of three made through the API (a pix, a bank slip and a card invoice of a third
// company), so that every row reads back and renders like a real one; what varies is their status, time,
// external_ref and payer. One invoice a minute, the newest an hour ago; each with the timeline, ledger entries,
// refunds and events its status implies, written in the order the service would write them.
import {
  chunk,
  companyIdOf,
  invoicesPerWithdrawal,
  makeTemplates,
  seedInvoices,
  seedPayers,
  seedWithdrawals,
  timeline
} from "./support/growth-seed.mjs"
import {
  eventsStatement,
  listStatement,
  operationsStatement,
  receivablesStatement,
  sweepReceivables,
  withdrawalsStatement
} from "./support/growth-statements.mjs"

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
  // The statement's cursor a tenth of the way into the history: a page 90 % down its walk.
  const entryCursor = Number(
    (
      await db.query(
        `SELECT min(id) AS id FROM ledger_entries WHERE company_id = $1 AND mode = 'test' AND invoice_id >= $2`,
        [companyId, first + Math.floor(count / 10)]
      )
    ).rows[0].id
  )
  // The schedule's cursor a tenth of the way into the history: a page 90 % down its walk.
  const receivableCursor = Number(
    (
      await db.query(
        `SELECT min(id) AS id FROM receivables WHERE company_id = $1 AND mode = 'test' AND invoice_id >= $2`,
        [companyId, first + Math.floor(count / 10)]
      )
    ).rows[0].id
  )
  const today = saoPauloDay(0)
  // The withdrawals list's cursor a tenth of the way into the history, counted from the newest.
  const withdrawalCursor = (
    await db.query(
      `SELECT id FROM withdrawals WHERE company_id = $1 AND mode = 'test'
       ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [companyId, Math.floor((count / invoicesPerWithdrawal) * 0.9)]
    )
  ).rows[0].id
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
    {
      name: "Statement, first page",
      paths: () => "/api/v2/balance/operations",
      statement: operationsStatement(companyId),
      rows: 20
    },
    {
      name: "Statement, a page 90 % down a cursor walk",
      paths: () => `/api/v2/balance/operations?starting_after=${entryCursor}`,
      statement: operationsStatement(companyId, entryCursor),
      rows: 20
    },
    {
      name: "Receivables, first page",
      paths: () => "/api/v2/receivables",
      statement: receivablesStatement(companyId),
      rows: 20
    },
    {
      name: "Receivables, a page 90 % down a cursor walk",
      paths: () => `/api/v2/receivables?starting_after=${receivableCursor}`,
      statement: receivablesStatement(companyId, { afterId: receivableCursor }),
      rows: 20
    },
    {
      name: "Receivables `payment_date_gte=` today (what is to come)",
      paths: () => `/api/v2/receivables?payment_date_gte=${today}`,
      statement: receivablesStatement(companyId, { paymentDateGte: today }),
      rows: 20
    },
    {
      name: "Withdrawals, first page",
      paths: () => "/api/v2/withdrawals",
      statement: withdrawalsStatement(companyId),
      rows: 20
    },
    {
      name: "Withdrawals, a page 90 % down a cursor walk",
      paths: () => `/api/v2/withdrawals?starting_after=${withdrawalCursor}`,
      statement: withdrawalsStatement(companyId, withdrawalCursor)
    },
    { name: "Company Infos", paths: () => "/api/v2/company" }
  ]
}

/** The São Paulo date (UTC−3) `days` from now, as YYYY-MM-DD. */
const saoPauloDay = (days) => new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10)

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
      await seedWithdrawals(db, { companyId, at, from, to })
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

  // Last, as it changes what the lists show: the sweep of what falls due tomorrow, at this size.
  const sweepStarted = performance.now()
  const swept = await sweepReceivables(db, saoPauloDay(1))
  const sweepSeconds = (performance.now() - sweepStarted) / 1000
  log(`swept ${swept} receivables due tomorrow in ${sweepSeconds.toFixed(2)} s`)

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
    `The receivables sweep, on that database, made the ${swept} receivables falling due tomorrow (of both companies) ` +
      `available in ${sweepSeconds.toFixed(2)} s: batches of 500, each locking its rows, moving them and writing ` +
      "their settlement entries in its own transaction, as the worker's sweep does.",
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
