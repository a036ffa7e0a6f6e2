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
    SELECT l.id, l.type, l.direction, l.amount, l.balance, l.bucket, i.secure_id AS invoice_id,
           fatura_ts(l.created_at) AS created_at
    FROM ledger_entries l JOIN invoices i ON i.id = l.invoice_id
    WHERE l.company_id = $1 AND l.mode = $2${beforeId === undefined ? "" : " AND l.id < $4"}
    ORDER BY l.id DESC
    LIMIT $3`,
  values: beforeId === undefined ? [companyId, "test", 21] : [companyId, "test", 21, beforeId]
})

/** SqlPostbackRepository's `listEvents`, first page, as it reaches Postgres. */
export const eventsStatement = (companyId) => ({
  text: `
    SELECT e.id, e.type, fatura_ts(e.created_at) AS created_at, e.livemode, e.data FROM events e
    WHERE e.company_id = $1 AND e.livemode = $2
    ORDER BY e.seq DESC
    LIMIT $3`,
  values: [companyId, false, 21]
})
