// The statements that read an invoice whole (with its client, card reference, timeline, ledger entries and refunds, in
// one round trip) and that append to its history, shared by the adapters that write invoices.
import type { NewMovement } from "@fatura/application"
import type { Invoice, InvoiceStatus, Timestamp } from "@fatura/domain"
import { Effect, Option, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { decodeFirst, decodeOne, decodeRows, Integer } from "./ColumnSchemas.js"
import { InvoiceRow, toInvoice } from "./InvoiceRows.js"

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
                                                    'created_at', fatura_ts(t.created_at)) ORDER BY t.id), '[]')
           FROM invoice_timeline t WHERE t.invoice_id = i.id) AS timeline,
        (SELECT coalesce(json_agg(json_build_object('id', l.id, 'type', l.type, 'direction', l.direction,
                                                    'amount', l.amount, 'balance', l.balance,
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
