// The BoletoRegistrationRepository port in SQL (migrations 0022, 0023): a registration per boleto a bank registers,
// the queues read by partial indexes — of pending registrations no remessa took yet, not withdrawn, and of write-offs
// no remessa took yet.
import { BoletoRegistrationRepository } from "@fatura/application"
import { Invoice } from "@fatura/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"
import { CentsColumn, InvoiceIdColumn } from "./InvoiceRows.js"
import * as InvoiceStatements from "./InvoiceStatements.js"
import { everyInvoice } from "./InvoiceStatements.js"

const decodeRegistration = decodeFirst(
  Schema.Struct({
    invoice_id: InvoiceIdColumn,
    our_number: Schema.String,
    status: Invoice.BoletoRegistration,
    remessa: Schema.NullOr(Schema.String),
    paid_amount: Schema.NullOr(CentsColumn)
  })
)

export const layer = Layer.effect(
  BoletoRegistrationRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { selectInvoice } = InvoiceStatements.make(sql)

    return BoletoRegistrationRepository.of({
      queue: (invoice, at) =>
        sql`
          INSERT INTO boleto_registrations (invoice_id, our_number, status, created_at, updated_at)
          VALUES (${invoice.id}, ${invoice.boleto?.ourNumber ?? ""}, 'pending', ${at}::timestamptz, ${at}::timestamptz)`.pipe(
          Effect.asVoid,
          storage
        ),

      queued: (limit) =>
        sql`
          ${selectInvoice}
          WHERE i.id IN (
            SELECT invoice_id FROM boleto_registrations
            WHERE status = 'pending' AND remessa IS NULL AND withdrawn_at IS NULL
            ORDER BY invoice_id
            LIMIT ${limit})
          ORDER BY i.id`.pipe(Effect.flatMap(everyInvoice), storage),

      queuedWriteOffs: (limit) =>
        sql`
          ${selectInvoice}
          WHERE i.id IN (
            SELECT invoice_id FROM boleto_registrations
            WHERE write_off_queued AND write_off_remessa IS NULL
            ORDER BY invoice_id
            LIMIT ${limit})
          ORDER BY i.id`.pipe(Effect.flatMap(everyInvoice), storage),

      assignWriteOffs: (invoiceIds, remessa, at) =>
        invoiceIds.length === 0
          ? Effect.void
          : sql`
              UPDATE boleto_registrations SET write_off_remessa = ${remessa}, updated_at = ${at}::timestamptz
              WHERE invoice_id IN ${sql.in(invoiceIds)}`.pipe(Effect.asVoid, storage),

      recordBankPayment: (invoiceId, amount, at) =>
        sql`
          UPDATE boleto_registrations SET paid_amount = ${amount}, updated_at = ${at}::timestamptz
          WHERE invoice_id = ${invoiceId} AND paid_amount IS NULL
          RETURNING invoice_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        ),

      withdraw: (invoiceId, at) =>
        sql`
          UPDATE boleto_registrations
          SET withdrawn_at = ${at}::timestamptz, write_off_queued = remessa IS NOT NULL, updated_at = ${at}::timestamptz
          WHERE invoice_id = ${invoiceId} AND withdrawn_at IS NULL`.pipe(Effect.asVoid, storage),

      assign: (invoiceIds, remessa, at) =>
        invoiceIds.length === 0
          ? Effect.void
          : sql`
              UPDATE boleto_registrations SET remessa = ${remessa}, updated_at = ${at}::timestamptz
              WHERE invoice_id IN ${sql.in(invoiceIds)}`.pipe(Effect.asVoid, storage),

      // A withdrawn registration the bank never took has nothing to write off; a write-off goes in the next remessa.
      release: (remessa, at) =>
        Effect.gen(function* () {
          const registrations = yield* sql`
            UPDATE boleto_registrations
            SET remessa = NULL, write_off_queued = false, write_off_remessa = NULL, updated_at = ${at}::timestamptz
            WHERE remessa = ${remessa} AND status = 'pending'
            RETURNING invoice_id`
          const writeOffs = yield* sql`
            UPDATE boleto_registrations SET write_off_remessa = NULL, updated_at = ${at}::timestamptz
            WHERE write_off_remessa = ${remessa}
            RETURNING invoice_id`
          return registrations.length + writeOffs.length
        }).pipe(storage),

      findByOurNumber: (ourNumber) =>
        sql`
          SELECT invoice_id, our_number, status, remessa, paid_amount
          FROM boleto_registrations WHERE our_number = ${ourNumber}`.pipe(
          Effect.flatMap(decodeRegistration),
          Effect.map(
            Option.map((row) => ({
              invoiceId: row.invoice_id,
              ourNumber: row.our_number,
              status: row.status,
              remessa: row.remessa,
              paidAmount: row.paid_amount
            }))
          ),
          storage
        ),

      set: (invoiceId, status, at) =>
        sql`
          UPDATE boleto_registrations SET status = ${status}, updated_at = ${at}::timestamptz
          WHERE invoice_id = ${invoiceId}`.pipe(Effect.asVoid, storage)
    })
  })
)
