// The CardChargeRepository port in SQL: a charge's row, written before the acquirer is asked and closed after.
import { type CardCharge, CardChargeRepository } from "@fatura/application"
import { Invoice, Timestamp } from "@fatura/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, Json } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"
import { CardChargeDraftJson, CardChargeTermsJson } from "./InvoiceDocuments.js"
import { CompanyIdColumn, InvoiceIdColumn } from "./InvoiceRows.js"

const CardChargeRow = Schema.Struct({
  reference: Schema.String,
  invoice_id: Schema.NullOr(InvoiceIdColumn),
  company_id: CompanyIdColumn,
  mode: Invoice.Mode,
  state: Schema.Literals(["requested", "approved", "refused", "void", "late"]),
  terms: Json(CardChargeTermsJson),
  draft: Schema.NullOr(Json(CardChargeDraftJson)),
  requested_at: Timestamp.Timestamp,
  reversal: Schema.NullOr(Schema.Literals(["requested", "voided", "refunded"]))
})

const toCardCharge = (row: typeof CardChargeRow.Type): CardCharge => ({
  reference: row.reference,
  invoiceId: row.invoice_id,
  companyId: row.company_id,
  mode: row.mode,
  state: row.state,
  terms: row.terms,
  draft: row.draft,
  requestedAt: row.requested_at,
  reversal: row.reversal
})

const firstRow = decodeFirst(CardChargeRow)
const everyRow = decodeRows(CardChargeRow)
const firstCharge = (rows: ReadonlyArray<unknown>) => Effect.map(firstRow(rows), Option.map(toCardCharge))
const everyCharge = (rows: ReadonlyArray<unknown>) => Effect.map(everyRow(rows), (decoded) => decoded.map(toCardCharge))

const cardChargeColumns =
  "reference, invoice_id, company_id, mode, state, terms, draft, fatura_ts(requested_at) AS requested_at, reversal"

export const layer = Layer.effect(
  CardChargeRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    return CardChargeRepository.of({
      recordCardCharge: (charge) =>
        sql`
          INSERT INTO card_charges (reference, invoice_id, company_id, mode, state, terms, draft, requested_at)
          VALUES (${charge.reference}, ${charge.invoiceId}, ${charge.companyId}, ${charge.mode}, 'requested',
                  ${JSON.stringify(charge.terms)}::jsonb,
                  ${charge.draft === null ? null : JSON.stringify(charge.draft)}::jsonb,
                  ${charge.requestedAt}::timestamptz)`.pipe(Effect.asVoid, storage),

      chargeInFlight: (invoiceId) =>
        sql`
          SELECT ${sql.unsafe(cardChargeColumns)} FROM card_charges
          WHERE invoice_id = ${invoiceId} AND state = 'requested'`.pipe(Effect.flatMap(firstCharge), storage),

      findCardCharge: (reference) =>
        sql`SELECT ${sql.unsafe(cardChargeColumns)} FROM card_charges WHERE reference = ${reference}`.pipe(
          Effect.flatMap(firstCharge),
          storage
        ),

      lockCardCharge: (reference) =>
        sql`SELECT ${sql.unsafe(cardChargeColumns)} FROM card_charges WHERE reference = ${reference} FOR UPDATE`.pipe(
          Effect.flatMap(firstCharge),
          storage
        ),

      closeCardCharge: (reference, state, invoiceId, at) =>
        sql`
          UPDATE card_charges
          SET state = ${state}, invoice_id = coalesce(${invoiceId}, invoice_id), draft = NULL,
              settled_at = ${at}::timestamptz
          WHERE reference = ${reference}`.pipe(Effect.asVoid, storage),

      closeLateCardCharge: (reference, approved, at) =>
        sql`
          UPDATE card_charges
          SET state = 'late', draft = NULL, settled_at = ${at}::timestamptz,
              reversal = ${approved ? "requested" : null}
          WHERE reference = ${reference}`.pipe(Effect.asVoid, storage),

      closeCardChargeReversal: (reference, reversal, at) =>
        sql`
          UPDATE card_charges SET reversal = ${reversal}, reversed_at = ${at}::timestamptz
          WHERE reference = ${reference} AND reversal = 'requested'`.pipe(Effect.asVoid, storage),

      staleCardChargeReversals: (closedBefore, limit) =>
        sql`
          SELECT ${sql.unsafe(cardChargeColumns)} FROM card_charges
          WHERE reversal = 'requested' AND settled_at < ${closedBefore}::timestamptz
          ORDER BY settled_at
          LIMIT ${limit}`.pipe(Effect.flatMap(everyCharge), storage),

      staleCardCharges: (requestedBefore, limit) =>
        sql`
          SELECT ${sql.unsafe(cardChargeColumns)} FROM card_charges
          WHERE state = 'requested' AND requested_at < ${requestedBefore}::timestamptz
          ORDER BY requested_at
          LIMIT ${limit}`.pipe(Effect.flatMap(everyCharge), storage)
    })
  })
)
