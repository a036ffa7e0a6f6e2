// The PixReturnRepository port in SQL: refunds asked of the pix provider (rows of `refunds` with a return id), received
// pix that paid nothing with their returns, and the reconciliation's cursor.
import { type PendingRefund, type PixRejection, PixReturnRepository, type Scheduled } from "@fatura/application"
import { Invoice, Timestamp } from "@fatura/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeOne, decodeRows, Integer } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"
import * as InvoiceHistory from "./InvoiceHistory.js"
import { CentsColumn, CompanyIdColumn, InvoiceIdColumn, RefundStatus } from "./InvoiceRows.js"
import * as InvoiceStatements from "./InvoiceStatements.js"

const PendingRefundRow = Schema.Struct({
  id: Integer,
  invoice_id: InvoiceIdColumn,
  company_id: CompanyIdColumn,
  mode: Invoice.Mode,
  amount: CentsColumn,
  return_id: Schema.String,
  pix_end_to_end_id: Schema.String,
  status: RefundStatus,
  created_at: Timestamp.Timestamp
})

const toPendingRefund = (row: typeof PendingRefundRow.Type): PendingRefund => ({
  id: row.id,
  invoiceId: row.invoice_id,
  companyId: row.company_id,
  mode: row.mode,
  amount: row.amount,
  returnId: row.return_id,
  endToEndId: row.pix_end_to_end_id,
  status: row.status,
  createdAt: row.created_at
})

const PixRejectionRow = Schema.Struct({
  end_to_end_id: Schema.String,
  invoice_id: InvoiceIdColumn,
  amount: CentsColumn,
  return_id: Schema.String,
  return_state: Schema.Literals(["pending", "returned", "refused"]),
  created_at: Timestamp.Timestamp
})

const toPixRejection = (row: typeof PixRejectionRow.Type): PixRejection => ({
  endToEndId: row.end_to_end_id,
  invoiceId: row.invoice_id,
  amount: row.amount,
  returnId: row.return_id,
  returnState: row.return_state,
  createdAt: row.created_at
})

const PendingReturnRow = Schema.Union([
  Schema.Struct({
    kind: Schema.Literal("refund"),
    id: Integer,
    invoice_id: InvoiceIdColumn,
    company_id: CompanyIdColumn,
    mode: Invoice.Mode,
    amount: CentsColumn,
    return_id: Schema.String,
    end_to_end_id: Schema.String,
    state: RefundStatus,
    created_at: Timestamp.Timestamp
  }),
  Schema.Struct({
    kind: Schema.Literal("rejection"),
    invoice_id: InvoiceIdColumn,
    amount: CentsColumn,
    return_id: Schema.String,
    end_to_end_id: Schema.String,
    state: PixRejectionRow.fields.return_state,
    created_at: Timestamp.Timestamp
  })
])

const decodeId = decodeOne(Schema.Struct({ id: Integer }))
const firstPendingRefund = decodeFirst(PendingRefundRow)
const everyPendingRefund = decodeRows(PendingRefundRow)
const everyPixRejection = decodeRows(PixRejectionRow)
const everyReturn = decodeRows(PendingReturnRow)
const firstListedUntil = decodeFirst(Schema.Struct({ listed_until: Timestamp.Timestamp }))

export const layer = Layer.effect(
  PixReturnRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { writeHistory } = InvoiceStatements.make(sql)
    /** The ledger entries and receivables of a pix return, written with the invoice's updated time. */
    const writeReturnEntries = (
      invoice: Pick<Invoice.Invoice, "id" | "companyId" | "mode">,
      scheduled: Scheduled,
      at: Timestamp.Timestamp
    ) =>
      writeHistory(
        invoice,
        sql`UPDATE invoices SET updated_at = ${at}::timestamptz WHERE id = ${invoice.id} RETURNING id`,
        { timeline: [], movements: scheduled.movements, receivables: scheduled.receivables, refund: null },
        at
      )

    const selectPendingRefund = sql`
      SELECT f.id, f.invoice_id, i.company_id, i.mode, f.amount, f.return_id, i.pix_end_to_end_id, f.status,
        fatura_ts(f.created_at) AS created_at
      FROM refunds f JOIN invoices i ON i.id = f.invoice_id`

    const selectPixRejection = sql`
      SELECT end_to_end_id, invoice_id, amount, return_id, return_state, fatura_ts(created_at) AS created_at
      FROM pix_rejections`

    return PixReturnRepository.of({
      recordPendingRefund: (invoice, request) =>
        Effect.gen(function* () {
          const rows = yield* sql`
            INSERT INTO refunds (invoice_id, amount, reason, status, return_id, created_at)
            VALUES (${invoice.id}, ${request.amount}, ${request.reason}, 'pending', ${request.returnId},
                    ${request.at}::timestamptz)
            RETURNING id`
          const { id } = yield* decodeId(rows)
          const written = yield* writeReturnEntries(invoice, request, request.at)
          return InvoiceHistory.afterPendingRefund(invoice, { ...request, id }, written)
        }).pipe(storage),

      findPendingRefund: (returnId) =>
        sql`${selectPendingRefund} WHERE f.return_id = ${returnId}`.pipe(
          Effect.flatMap(firstPendingRefund),
          Effect.map(Option.map(toPendingRefund)),
          storage
        ),

      closePendingRefund: (invoice, refundId, outcome, at) =>
        Effect.gen(function* () {
          const closed = yield* sql`
            UPDATE refunds
            SET status = ${outcome.status}, settled_at = ${at}::timestamptz,
                failure_reason = ${outcome.status === "failed" ? outcome.reason : null}
            WHERE id = ${refundId} AND invoice_id = ${invoice.id} AND status = 'pending'
            RETURNING id`
          if (closed.length === 0) return Option.none()
          if (outcome.status === "succeeded")
            return Option.some(InvoiceHistory.afterReturnClosed(invoice, refundId, outcome))
          const written = yield* writeReturnEntries(invoice, outcome, at)
          return Option.some(InvoiceHistory.afterReturnClosed(invoice, refundId, outcome, { at, written }))
        }).pipe(storage),

      stalePendingRefunds: (createdBefore, limit) =>
        sql`
          ${selectPendingRefund}
          WHERE f.status = 'pending' AND f.created_at < ${createdBefore}::timestamptz
          ORDER BY f.created_at, f.id
          LIMIT ${limit}`.pipe(
          Effect.flatMap(everyPendingRefund),
          Effect.map((rows) => rows.map(toPendingRefund)),
          storage
        ),

      recordPixRejection: (rejection) =>
        sql`
          INSERT INTO pix_rejections (end_to_end_id, invoice_id, amount, reason, return_id, created_at)
          VALUES (${rejection.endToEndId}, ${rejection.invoiceId}, ${rejection.amount}, ${rejection.reason},
                  ${rejection.returnId}, ${rejection.at}::timestamptz)
          ON CONFLICT (end_to_end_id) DO NOTHING
          RETURNING end_to_end_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        ),

      closePixRejection: (returnId, state, at) =>
        sql`
          UPDATE pix_rejections SET return_state = ${state}, settled_at = ${at}::timestamptz
          WHERE return_id = ${returnId} AND return_state = 'pending'`.pipe(Effect.asVoid, storage),

      findPendingReturns: (returnIds) =>
        returnIds.length === 0
          ? Effect.succeed({ refunds: [], rejections: [] })
          : // Both kinds in one statement: a refund's row and a rejection's, told apart by `kind`.
            sql`
              SELECT 'refund' AS kind, f.id, f.invoice_id, i.company_id, i.mode, f.amount, f.return_id,
                i.pix_end_to_end_id AS end_to_end_id, f.status AS state, fatura_ts(f.created_at) AS created_at
              FROM refunds f JOIN invoices i ON i.id = f.invoice_id
              WHERE f.return_id IN ${sql.in(returnIds)} AND f.status = 'pending'
              UNION ALL
              SELECT 'rejection', NULL, r.invoice_id, NULL, NULL, r.amount, r.return_id, r.end_to_end_id,
                r.return_state, fatura_ts(r.created_at)
              FROM pix_rejections r
              WHERE r.return_id IN ${sql.in(returnIds)} AND r.return_state = 'pending'`.pipe(
              Effect.flatMap(everyReturn),
              Effect.map((rows) => ({
                refunds: rows.flatMap((row) =>
                  row.kind === "refund"
                    ? [toPendingRefund({ ...row, pix_end_to_end_id: row.end_to_end_id, status: row.state })]
                    : []
                ),
                rejections: rows.flatMap((row) =>
                  row.kind === "rejection" ? [toPixRejection({ ...row, return_state: row.state })] : []
                )
              })),
              storage
            ),

      stalePixRejections: (createdBefore, limit) =>
        sql`
          ${selectPixRejection}
          WHERE return_state = 'pending' AND created_at < ${createdBefore}::timestamptz
          ORDER BY created_at, end_to_end_id
          LIMIT ${limit}`.pipe(
          Effect.flatMap(everyPixRejection),
          Effect.map((rows) => rows.map(toPixRejection)),
          storage
        ),

      pixListedUntil: sql`
        SELECT fatura_ts(listed_until) AS listed_until FROM pix_reconciliations WHERE provider = 'pix'`.pipe(
        Effect.flatMap(firstListedUntil),
        Effect.map(Option.map((row) => row.listed_until)),
        storage
      ),

      setPixListedUntil: (until) =>
        sql`
          INSERT INTO pix_reconciliations (provider, listed_until) VALUES ('pix', ${until}::timestamptz)
          ON CONFLICT (provider) DO UPDATE
            SET listed_until = greatest(pix_reconciliations.listed_until, excluded.listed_until)`.pipe(
          Effect.asVoid,
          storage
        )
    })
  })
)
