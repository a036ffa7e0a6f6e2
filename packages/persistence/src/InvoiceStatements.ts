// The statements that read an invoice whole (with its client, card reference, timeline, ledger entries and refunds, in
// one round trip) and that append to its history, shared by the adapters that write invoices.
import type { NewMovement } from "@fatura/application"
import type { Cents, Invoice, InvoiceStatus, Timestamp } from "@fatura/domain"
import { Effect, Option, Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { decodeFirst, decodeOne, decodeRows, Integer, Json } from "./ColumnSchemas.js"
import { InvoiceIdColumn, InvoiceRow, toInvoice } from "./InvoiceRows.js"

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

const decodeWritten = decodeOne(
  Schema.Struct({ id: InvoiceIdColumn, movements: Json(Schema.Array(Integer)), refund_id: Schema.NullOr(Integer) })
)

/** A status an invoice went through, with its event. */
export interface TimelineEntry {
  readonly status: InvoiceStatus.InvoiceStatus
  readonly event: string
}

/** What a write adds to an invoice's history besides its own row. */
export interface History {
  readonly timeline: ReadonlyArray<TimelineEntry>
  readonly movements: ReadonlyArray<NewMovement>
  /** A refund that succeeds with this write. */
  readonly refund: { readonly amount: Cents.Cents; readonly reason: string | null } | null
}

/** What the history writer wrote, with the ids the rows were given. */
export interface Written {
  readonly id: Invoice.InvoiceId
  readonly movements: ReadonlyArray<Invoice.Movement>
  readonly refund: Invoice.RefundRecord | null
}

export const make = (sql: SqlClient.SqlClient) => {
  const columns = sql.unsafe(invoiceColumns)
  const tables = sql.unsafe(invoiceTables)
  const selectInvoice = sql`SELECT ${columns} FROM ${tables}`

  const findById = (id: Invoice.InvoiceId) =>
    sql`${selectInvoice} WHERE i.id = ${id}`.pipe(Effect.flatMap(firstInvoice))

  /** Inserts timeline entries, in their order (their ids follow `n`), of the invoice `invoiceId` evaluates to. */
  const timelineRows = (
    invoiceId: Statement.Fragment,
    timeline: ReadonlyArray<TimelineEntry>,
    at: Timestamp.Timestamp
  ) =>
    sql`
      INSERT INTO invoice_timeline (invoice_id, status, event, created_at)
      SELECT ${invoiceId}, entry.status, entry.event, ${at}::timestamptz
      FROM (VALUES ${sql.csv(timeline.map((entry, n) => sql`(${n}::int, ${entry.status}, ${entry.event})`))})
        AS entry (n, status, event)
      ORDER BY entry.n`

  /** Inserts ledger entries, in their order, of the invoice `invoiceId` evaluates to; RETURNING their ids. */
  const ledgerRows = (
    invoiceId: Statement.Fragment,
    owner: Pick<Invoice.Invoice, "companyId" | "mode">,
    movements: ReadonlyArray<NewMovement>,
    at: Timestamp.Timestamp
  ) =>
    sql`
      INSERT INTO ledger_entries (company_id, invoice_id, mode, type, direction, amount, balance, created_at)
      SELECT ${owner.companyId}::bigint, ${invoiceId}, ${owner.mode}, entry.type, entry.direction, entry.amount,
        entry.balance, ${at}::timestamptz
      FROM (VALUES ${sql.csv(
        movements.map(
          (movement, n) =>
            sql`(${n}::int, ${movement.type}, ${movement.direction}, ${movement.amount}::bigint, ${movement.balance})`
        )
      )}) AS entry (n, type, direction, amount, balance)
      ORDER BY entry.n
      RETURNING id`

  /**
   * The history writer: `row` (the statement that inserts or changes the invoice's row, RETURNING its id), with the
   * invoice's timeline entries, ledger entries and refund, in one statement. It returns what it wrote with the ids the
   * rows got, for the caller to build the invoice as it now is from what it holds: nothing is read back.
   *
   * The other writes take the invoice's id from `row`, so the row is written first, and its triggers (the paid months)
   * fire before the ledger's (the balances), in the order every transaction takes those rows: in the other order, a
   * move and a create of the same company would wait on each other.
   */
  const writeHistory = (
    owner: Pick<Invoice.Invoice, "companyId" | "mode">,
    row: Statement.Fragment,
    history: History,
    at: Timestamp.Timestamp
  ): Effect.Effect<Written, SqlError> => {
    const invoiceId = sql`(SELECT id FROM invoice)`
    const refund = history.refund
    const writes = [
      sql`invoice AS (${row})`,
      ...(history.timeline.length === 0 ? [] : [sql`timeline AS (${timelineRows(invoiceId, history.timeline, at)})`]),
      ...(history.movements.length === 0
        ? []
        : [sql`ledger AS (${ledgerRows(invoiceId, owner, history.movements, at)})`]),
      ...(refund === null
        ? []
        : [
            sql`refund AS (
              INSERT INTO refunds (invoice_id, amount, reason, created_at)
              VALUES (${invoiceId}, ${refund.amount}, ${refund.reason}, ${at}::timestamptz)
              RETURNING id)`
          ])
    ]
    const movements =
      history.movements.length === 0 ? sql`'[]'::json` : sql`(SELECT json_agg(id ORDER BY id) FROM ledger)`
    const refundId = refund === null ? sql`NULL::bigint` : sql`(SELECT id FROM refund)`
    return sql`
      WITH ${sql.csv(writes)}
      SELECT ${invoiceId} AS id, ${movements} AS movements, ${refundId} AS refund_id`.pipe(
      Effect.flatMap(decodeWritten),
      Effect.map(
        (written): Written => ({
          id: written.id,
          movements: history.movements.map((movement, n) => ({
            ...movement,
            id: written.movements[n]!,
            createdAt: at
          })),
          refund:
            refund === null || written.refund_id === null
              ? null
              : { ...refund, id: written.refund_id, status: "succeeded", failureReason: null, createdAt: at }
        })
      )
    )
  }

  return { columns, tables, selectInvoice, findById, timelineRows, ledgerRows, writeHistory }
}
