// The statements that read an invoice whole (with its client, card reference, timeline, ledger entries and refunds, in
// one round trip) and that append to its history, shared by the adapters that write invoices.
import type { NewMovement } from "@fatura/application"
import type { Invoice, InvoiceStatus, Timestamp } from "@fatura/domain"
import { Effect, Option, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { decodeFirst, decodeOne, decodeRows, Integer } from "./ColumnSchemas.js"
import { InvoiceRow, toInvoice } from "./InvoiceRows.js"
import { invoiceColumns, invoiceTables } from "./Statements.js"

export { invoiceColumns, invoiceTables }

const decodeRow = Schema.decodeUnknownEffect(InvoiceRow)
const firstRow = decodeFirst(InvoiceRow)
const everyRow = decodeRows(InvoiceRow)

/** The invoice of a row that holds an invoice's columns among others. */
export const invoiceOf = (row: unknown) => Effect.orDie(Effect.map(decodeRow(row), toInvoice))

/** The invoice of a statement's first row, if any. */
export const firstInvoice = (rows: ReadonlyArray<unknown>) => Effect.map(firstRow(rows), Option.map(toInvoice))

/** The invoices of a statement's rows, in their order. */
export const everyInvoice = (rows: ReadonlyArray<unknown>) =>
  Effect.map(everyRow(rows), (decoded) => decoded.map(toInvoice))

const decodeId = decodeOne(Schema.Struct({ id: Integer }))

export const make = (sql: SqlClient.SqlClient) => {
  const columns = sql.unsafe(invoiceColumns)
  const tables = sql.unsafe(invoiceTables)
  const selectInvoice = sql`SELECT ${columns} FROM ${tables}`

  const findById = (id: Invoice.InvoiceId) =>
    sql`${selectInvoice} WHERE i.id = ${id}`.pipe(Effect.flatMap(firstInvoice))

  const appendTimeline = (
    invoiceId: Invoice.InvoiceId,
    entry: { readonly status: InvoiceStatus.InvoiceStatus; readonly event: string },
    at: Timestamp.Timestamp
  ) =>
    sql`
        INSERT INTO invoice_timeline (invoice_id, status, event, created_at)
        VALUES (${invoiceId}, ${entry.status}, ${entry.event}, ${at}::timestamptz)`

  const appendLedger = (
    invoice: Pick<Invoice.Invoice, "id" | "companyId" | "mode">,
    movement: NewMovement,
    at: Timestamp.Timestamp
  ) =>
    sql`
        INSERT INTO ledger_entries (company_id, invoice_id, mode, type, direction, amount, balance, created_at)
        VALUES (${invoice.companyId}, ${invoice.id}, ${invoice.mode}, ${movement.type}, ${movement.direction},
                ${movement.amount}, ${movement.balance}, ${at}::timestamptz)
        RETURNING id`.pipe(
      Effect.flatMap(decodeId),
      Effect.map((row): Invoice.Movement => ({ ...movement, id: row.id, createdAt: at }))
    )

  return { columns, tables, selectInvoice, findById, appendTimeline, appendLedger }
}
