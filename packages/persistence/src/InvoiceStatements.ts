// The statements that read an invoice whole (with its client, card reference, timeline, ledger entries and refunds, in
// one round trip) and that append to its history, shared by the adapters that write invoices.
import type { NewMovement } from "@fatura/application"
import type { Cents, Invoice, InvoiceStatus, Receivable, Timestamp } from "@fatura/domain"
import { Effect, Option, Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { decodeFirst, decodeOne, decodeRows, Integer, Json } from "./ColumnSchemas.js"
import { InvoiceIdColumn, InvoiceRow, toInvoice } from "./InvoiceRows.js"
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

const decodeWritten = decodeOne(
  Schema.Struct({ id: InvoiceIdColumn, movements: Json(Schema.Array(Integer)), refund_id: Schema.NullOr(Integer) })
)

/** A status an invoice went through, with its event. */
export interface TimelineEntry {
  readonly status: InvoiceStatus.InvoiceStatus
  readonly event: string
  readonly detail?: string | undefined
}

/** What a write adds to an invoice's history besides its own row. */
export interface History {
  readonly timeline: ReadonlyArray<TimelineEntry>
  readonly movements: ReadonlyArray<NewMovement>
  readonly receivables: ReadonlyArray<Receivable.NewReceivable>
  /** A refund that succeeds with this write. */
  readonly refund: { readonly amount: Cents.Cents; readonly reason: string | null } | null
}

/** What the history writer wrote, with the ids the rows were given. */
export interface Written {
  readonly id: Invoice.InvoiceId
  readonly movements: ReadonlyArray<Invoice.Movement>
  readonly refund: Invoice.RefundRecord | null
}

/**
 * What the history writer wrote, from its one row (the invoice's id, its ledger entries' ids in their order, its
 * refund's id): `history` with the ids its rows got, dated `at`.
 */
export const writtenOf =
  (history: History, at: Timestamp.Timestamp) =>
  (rows: ReadonlyArray<unknown>): Effect.Effect<Written> =>
    Effect.map(
      decodeWritten(rows),
      (written): Written => ({
        id: written.id,
        movements: history.movements.map((movement, n) => ({ ...movement, id: written.movements[n]!, createdAt: at })),
        refund:
          history.refund === null || written.refund_id === null
            ? null
            : { ...history.refund, id: written.refund_id, status: "succeeded", failureReason: null, createdAt: at }
      })
    )

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
      INSERT INTO invoice_timeline (invoice_id, status, event, detail, created_at)
      SELECT ${invoiceId}, entry.status, entry.event, entry.detail, ${at}::timestamptz
      FROM (VALUES ${sql.csv(
        timeline.map((entry, n) => sql`(${n}::int, ${entry.status}, ${entry.event}, ${entry.detail ?? null}::text)`)
      )})
        AS entry (n, status, event, detail)
      ORDER BY entry.n`

  /** Inserts ledger entries, in their order, of the invoice `invoiceId` evaluates to; RETURNING their ids. */
  const ledgerRows = (
    invoiceId: Statement.Fragment,
    owner: Pick<Invoice.Invoice, "companyId" | "mode">,
    movements: ReadonlyArray<NewMovement>,
    at: Timestamp.Timestamp
  ) =>
    sql`
      INSERT INTO ledger_entries (company_id, invoice_id, mode, type, direction, amount, balance, bucket, created_at)
      SELECT ${owner.companyId}::bigint, ${invoiceId}, ${owner.mode}, entry.type, entry.direction, entry.amount,
        entry.balance, entry.bucket, ${at}::timestamptz
      FROM (VALUES ${sql.csv(
        movements.map(
          (movement, n) =>
            sql`(${n}::int, ${movement.type}, ${movement.direction}, ${movement.amount}::bigint, ${movement.balance}, ${movement.bucket})`
        )
      )}) AS entry (n, type, direction, amount, balance, bucket)
      ORDER BY entry.n
      RETURNING id`

  /** Inserts receivables, in their order, of the invoice `invoiceId` evaluates to. */
  const receivableRows = (
    invoiceId: Statement.Fragment,
    owner: Pick<Invoice.Invoice, "companyId" | "mode">,
    receivables: ReadonlyArray<Receivable.NewReceivable>,
    at: Timestamp.Timestamp
  ) =>
    sql`
      INSERT INTO receivables (company_id, mode, invoice_id, installment, amount, fee, net_amount, balance, status,
        payment_date, original_payment_date, created_at, updated_at)
      SELECT ${owner.companyId}::bigint, ${owner.mode}, ${invoiceId}, r.installment, r.amount, r.fee, r.net_amount,
        r.balance, r.status, r.payment_date, r.original_payment_date, ${at}::timestamptz, ${at}::timestamptz
      FROM (VALUES ${sql.csv(
        receivables.map(
          (receivable, n) =>
            sql`(${n}::int, ${receivable.installment}::int, ${receivable.amount}::bigint, ${receivable.fee}::bigint,
              ${receivable.netAmount}::bigint, ${receivable.balance}, ${receivable.status},
              ${receivable.paymentDate}::date, ${receivable.originalPaymentDate}::date)`
        )
      )}) AS r (n, installment, amount, fee, net_amount, balance, status, payment_date, original_payment_date)
      ORDER BY r.n`

  /**
   * The history writer: `row` (the statement that inserts or changes the invoice's row, RETURNING its id), with the
   * invoice's timeline entries, ledger entries, receivables and refund, in one statement. It returns what it wrote with the ids the
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
      ...(history.receivables.length === 0
        ? []
        : [sql`receivables AS (${receivableRows(invoiceId, owner, history.receivables, at)})`]),
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
      Effect.flatMap(writtenOf(history, at))
    )
  }

  return { selectInvoice, findById, timelineRows, ledgerRows, receivableRows, writeHistory }
}
