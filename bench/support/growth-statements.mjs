// The statements of bench/growth.mjs whose plans are shown and whose first pages are checked against the service's
// answers: the invoice's columns and tables are the repository's own (read from `@fatura/persistence/statements`), the
// rest is quoted from the repositories as it reaches Postgres.
import { loadStatements } from "../baseline-sql.mjs"

const { invoiceColumns, invoiceTables } = await loadStatements()
if (typeof invoiceColumns !== "string" || typeof invoiceTables !== "string") {
  throw new Error("bench: @fatura/persistence/statements lacks invoiceColumns or invoiceTables, which the study reads")
}

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
    SELECT ${invoiceColumns}
    FROM ${invoiceTables}
    WHERE ${conditions.join(" AND ")}
    ORDER BY i.created_at DESC, i.id DESC
    LIMIT ${param(21)}`
  return { text, values }
}

/** SqlLedgerEntryRepository's `operations` (the statement), as it reaches Postgres: its first page, or after `beforeId`. */
export const operationsStatement = (companyId, beforeId) => ({
  text: `
    SELECT l.id, l.type, l.direction, l.amount, l.balance, l.bucket, i.secure_id AS invoice_id, l.withdrawal_id,
           fatura_ts(l.created_at) AS created_at
    FROM ledger_entries l LEFT JOIN invoices i ON i.id = l.invoice_id
    WHERE l.company_id = $1 AND l.mode = $2${beforeId === undefined ? "" : " AND l.id < $4"}
    ORDER BY l.id DESC
    LIMIT $3`,
  values: beforeId === undefined ? [companyId, "test", 21] : [companyId, "test", 21, beforeId]
})

/** SqlWithdrawalRepository's `list`, as it reaches Postgres: first page, or after `afterId`. */
export const withdrawalsStatement = (companyId, afterId) => {
  const cursor = "(SELECT created_at FROM withdrawals WHERE id = $4)"
  return {
    text: `
    SELECT w.id, w.company_id, w.mode, w.amount, w.fee, w.status, w.sources, w.destination, w.rail, w.end_to_end_id,
      w.failure_reason, fatura_ts(w.created_at) AS created_at, fatura_ts(w.updated_at) AS updated_at,
      fatura_ts(w.sent_at) AS sent_at, fatura_ts(w.paid_at) AS paid_at
    FROM withdrawals w
    WHERE w.company_id = $1 AND w.mode = $2${afterId === undefined ? "" : ` AND w.created_at <= ${cursor} AND (w.created_at < ${cursor} OR w.id < $4)`}
    ORDER BY w.created_at DESC, w.id DESC
    LIMIT $3`,
    values: afterId === undefined ? [companyId, "test", 21] : [companyId, "test", 21, afterId]
  }
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

/** SqlReceivableRepository's `list` (the schedule), as it reaches Postgres: first page, after `afterId`, or filtered. */
export const receivablesStatement = (companyId, { afterId, status, paymentDateGte } = {}) => {
  const values = [companyId, "test"]
  const param = (value) => {
    values.push(value)
    return `$${values.length}`
  }
  const conditions = ["r.company_id = $1", "r.mode = $2"]
  if (afterId !== undefined) {
    const id = param(afterId)
    const cursorDate = `(SELECT payment_date FROM receivables WHERE id = ${id})`
    conditions.push(`r.payment_date >= ${cursorDate}`, `(r.payment_date, r.id) > (${cursorDate}, ${id}::bigint)`)
  }
  if (status !== undefined) conditions.push(`r.status = ${param(status)}`)
  if (paymentDateGte !== undefined) conditions.push(`r.payment_date >= ${param(paymentDateGte)}::date`)
  const text = `
    SELECT r.id, r.installment, r.amount, r.fee, r.net_amount, r.balance, r.status,
      to_char(r.payment_date, 'YYYY-MM-DD') AS payment_date,
      to_char(r.original_payment_date, 'YYYY-MM-DD') AS original_payment_date,
      i.secure_id::text AS invoice_secure_id, r.anticipation_fee,
      fatura_ts(r.created_at) AS created_at, fatura_ts(r.updated_at) AS updated_at
    FROM receivables r JOIN invoices i ON i.id = r.invoice_id
    WHERE ${conditions.join(" AND ")}
    ORDER BY r.payment_date, r.id
    LIMIT ${param(21)}`
  return { text, values }
}

/**
 * The receivables sweep (Receivables.sweep over SqlReceivableRepository's `lockDue` and `settle`), as it reaches
 * Postgres: batches of 500 waiting receivables due by `today`, each batch its own transaction that locks them, makes
 * them available and writes their settlement entries (Ledger.onSettlement); until a batch is short. Returns how many.
 */
export const sweepReceivables = async (db, today) => {
  let settled = 0
  while (true) {
    await db.query("BEGIN")
    try {
      const { rows } = await db.query(
        `SELECT r.id, r.net_amount, r.balance, r.company_id, r.mode, r.invoice_id, r.payment_date
         FROM receivables r JOIN invoices i ON i.id = r.invoice_id
         WHERE r.status = 'waiting_funds' AND r.payment_date <= $1::date
         ORDER BY r.payment_date, r.id
         LIMIT 500
         FOR UPDATE OF r SKIP LOCKED
         FOR KEY SHARE OF i SKIP LOCKED`,
        [today]
      )
      if (rows.length > 0) {
        const entries = rows.flatMap((row) => {
          const net = Number(row.net_amount)
          if (net === 0) return []
          const [from, to] = net > 0 ? ["waiting", "available"] : ["available", "waiting"]
          const common = [row.id, row.company_id, row.mode, row.invoice_id, "settlement"]
          return [
            [...common, "debit", Math.abs(net), row.balance, from],
            [...common, "credit", Math.abs(net), row.balance, to]
          ]
        })
        const params = []
        const tuple = (values) => `(${values.map((value) => `$${params.push(value)}`).join(", ")})`
        const moved = rows.map((row) => tuple([row.id, row.payment_date]))
        const ledger = entries.map((entry) => tuple(entry))
        await db.query(
          `WITH moved AS (
             UPDATE receivables r SET status = 'available', payment_date = m.payment_date::date, updated_at = now()
             FROM (VALUES ${moved.join(", ")}) AS m (id, payment_date)
             WHERE r.id = m.id::bigint AND r.status = 'waiting_funds'
             RETURNING r.id)${
               ledger.length === 0
                 ? ""
                 : `, ledger AS (
             INSERT INTO ledger_entries (company_id, mode, invoice_id, type, direction, amount, balance, bucket,
               created_at)
             SELECT e.company_id::bigint, e.mode, e.invoice_id::bigint, e.type, e.direction, e.amount::bigint,
               e.balance, e.bucket, now()
             FROM (VALUES ${ledger.join(", ")})
               AS e (receivable_id, company_id, mode, invoice_id, type, direction, amount, balance, bucket)
             WHERE e.receivable_id::bigint IN (SELECT id FROM moved)
             ORDER BY e.company_id, e.mode
             RETURNING id)`
             }
           SELECT count(*) FROM moved`,
          params
        )
      }
      await db.query("COMMIT")
      settled += rows.length
      if (rows.length < 500) return settled
    } catch (error) {
      await db.query("ROLLBACK")
      throw error
    }
  }
}
