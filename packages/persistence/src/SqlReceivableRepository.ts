// The ReceivableRepository port in SQL (migration 0019): an invoice's receivables by (invoice, id); a company's
// schedule by (company, mode, payment date, id), with or without its status; what is due by the partial index of the
// waiting ones. Settling writes the rows' new status and their ledger entries in one statement.
import { type OwnedReceivable, ReceivableRepository, type ScheduledReceivable } from "@fatura/application"
import { BusinessCalendar, Invoice, PaymentMethod, Receivable, Timestamp } from "@fatura/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows, Integer } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"
import { CompanyIdColumn, InvoiceIdColumn } from "./InvoiceRows.js"

const receivableColumns = `
  r.id, r.installment, r.amount, r.fee, r.net_amount, r.balance, r.status,
  to_char(r.payment_date, 'YYYY-MM-DD') AS payment_date,
  to_char(r.original_payment_date, 'YYYY-MM-DD') AS original_payment_date`

const ReceivableRow = Schema.Struct({
  id: Integer,
  installment: Integer,
  amount: Integer,
  fee: Integer,
  net_amount: Integer,
  balance: PaymentMethod.BalanceKind,
  status: Receivable.Status,
  payment_date: BusinessCalendar.CalendarDate,
  original_payment_date: BusinessCalendar.CalendarDate
})

const OwnedRow = Schema.Struct({
  ...ReceivableRow.fields,
  invoice_id: InvoiceIdColumn,
  company_id: CompanyIdColumn,
  mode: Invoice.Mode
})

const ScheduledRow = Schema.Struct({
  ...ReceivableRow.fields,
  invoice_secure_id: Invoice.SecureId,
  anticipation_fee: Integer,
  created_at: Timestamp.Timestamp,
  updated_at: Timestamp.Timestamp
})

const toReceivable = (row: typeof ReceivableRow.Type): Receivable.Receivable => ({
  id: row.id,
  installment: row.installment,
  amount: row.amount,
  fee: row.fee,
  netAmount: row.net_amount,
  balance: row.balance,
  status: row.status,
  paymentDate: row.payment_date,
  originalPaymentDate: row.original_payment_date
})

const toOwned = (row: typeof OwnedRow.Type): OwnedReceivable => ({
  ...toReceivable(row),
  invoiceId: row.invoice_id,
  companyId: row.company_id,
  mode: row.mode
})

const toScheduled = (row: typeof ScheduledRow.Type): ScheduledReceivable => ({
  ...toReceivable(row),
  invoiceId: row.invoice_secure_id,
  anticipationFee: row.anticipation_fee,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const decodeOwned = decodeRows(OwnedRow)
const decodeScheduled = decodeRows(ScheduledRow)

export const layer = Layer.effect(
  ReceivableRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(receivableColumns)
    const ownedColumns = sql`${columns}, r.invoice_id, r.company_id, r.mode`

    return ReceivableRepository.of({
      ofInvoice: (invoiceId) =>
        sql`SELECT ${ownedColumns} FROM receivables r WHERE r.invoice_id = ${invoiceId} ORDER BY r.id`.pipe(
          Effect.flatMap(decodeOwned),
          Effect.map((rows) => rows.map(toOwned)),
          storage
        ),

      // The cursor is written as a plain bound on payment_date, as the invoice list's is, so that the index starts its
      // walk from the tighter of it and `payment_date_gte`, plus a row comparison for the tie-break, which the index
      // takes as a start too: many receivables share a day, and a tie-break filtered after the index would walk every
      // receivable of the cursor's day before it.
      list: (filter) => {
        const cursorDate = sql`(SELECT payment_date FROM receivables WHERE id = ${filter.afterId})`
        const conditions = [
          sql`r.company_id = ${filter.companyId}`,
          sql`r.mode = ${filter.mode}`,
          ...(filter.afterId === null
            ? []
            : [
                sql`r.payment_date >= ${cursorDate}`,
                sql`(r.payment_date, r.id) > (${cursorDate}, ${filter.afterId}::bigint)`
              ]),
          ...(filter.status === null ? [] : [sql`r.status = ${filter.status}`]),
          ...(filter.invoiceId === null
            ? []
            : [
                sql`r.invoice_id = (SELECT id FROM invoices WHERE secure_id = ${filter.invoiceId}::uuid
                      AND company_id = ${filter.companyId} AND mode = ${filter.mode})`
              ]),
          ...(filter.paymentDateGte === null ? [] : [sql`r.payment_date >= ${filter.paymentDateGte}::date`]),
          ...(filter.paymentDateLte === null ? [] : [sql`r.payment_date <= ${filter.paymentDateLte}::date`])
        ]
        return sql`
          SELECT ${columns}, i.secure_id::text AS invoice_secure_id, r.anticipation_fee,
            fatura_ts(r.created_at) AS created_at, fatura_ts(r.updated_at) AS updated_at
          FROM receivables r JOIN invoices i ON i.id = r.invoice_id
          WHERE ${sql.and(conditions)}
          ORDER BY r.payment_date, r.id
          LIMIT ${filter.limit + 1}`.pipe(
          Effect.flatMap(decodeScheduled),
          Effect.map((rows) => rows.map(toScheduled)),
          storage
        )
      },

      has: (companyId, mode, id) =>
        sql`SELECT 1 AS found FROM receivables WHERE id = ${id} AND company_id = ${companyId} AND mode = ${mode}`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        ),

      // KEY SHARE of the invoice conflicts with the FOR UPDATE a move holds it by: the receivables of an invoice being
      // refunded or charged back are left for the next batch, and a move that comes after waits for this batch alone.
      lockDue: (today, limit) =>
        sql`
          SELECT ${ownedColumns}
          FROM receivables r JOIN invoices i ON i.id = r.invoice_id
          WHERE r.status = 'waiting_funds' AND r.payment_date <= ${today}::date
          ORDER BY r.payment_date, r.id
          LIMIT ${limit}
          FOR UPDATE OF r SKIP LOCKED
          FOR KEY SHARE OF i SKIP LOCKED`.pipe(
          Effect.flatMap(decodeOwned),
          Effect.map((rows) => rows.map(toOwned)),
          storage
        ),

      // The entries are written for the receivables that were still waiting alone, so that settling one twice moves
      // its money once; and by company and mode, so that two sweeps settling the same companies take their balance
      // rows (moved by the ledger's trigger) in the same order and never wait on each other in a cycle.
      settle: (settlements, at) => {
        if (settlements.length === 0) return Effect.void
        const moved = settlements.map(
          ({ receivable, paymentDate }) => sql`(${receivable.id}::bigint, ${paymentDate}::date)`
        )
        const entries = settlements.flatMap(({ receivable, movements }) =>
          movements.map(
            (movement) =>
              sql`(${receivable.id}::bigint, ${receivable.companyId}::bigint, ${receivable.mode},
                ${receivable.invoiceId}::bigint, ${movement.type}, ${movement.direction}, ${movement.amount}::bigint,
                ${movement.balance}, ${movement.bucket})`
          )
        )
        const ledger =
          entries.length === 0
            ? sql``
            : sql`, ledger AS (
                INSERT INTO ledger_entries (company_id, mode, invoice_id, type, direction, amount, balance, bucket,
                  created_at)
                SELECT e.company_id, e.mode, e.invoice_id, e.type, e.direction, e.amount, e.balance, e.bucket,
                  ${at}::timestamptz
                FROM (VALUES ${sql.csv(entries)})
                  AS e (receivable_id, company_id, mode, invoice_id, type, direction, amount, balance, bucket)
                WHERE e.receivable_id IN (SELECT id FROM moved)
                ORDER BY e.company_id, e.mode
                RETURNING id)`
        return sql`
          WITH moved AS (
            UPDATE receivables r SET status = 'available', payment_date = m.payment_date,
              updated_at = ${at}::timestamptz
            FROM (VALUES ${sql.csv(moved)}) AS m (id, payment_date)
            WHERE r.id = m.id AND r.status = 'waiting_funds'
            RETURNING r.id)${ledger}
          SELECT count(*) AS moved FROM moved`.pipe(Effect.asVoid, storage)
      }
    })
  })
)
