// The BoletoRegistrationRepository port in SQL (migration 0022): a registration per boleto a bank registers, the
// queue read by its partial index of pending registrations no remessa took yet.
import { BoletoRegistrationRepository } from "@fatura/application"
import { Invoice } from "@fatura/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"
import { InvoiceIdColumn } from "./InvoiceRows.js"
import * as InvoiceStatements from "./InvoiceStatements.js"
import { everyInvoice } from "./InvoiceStatements.js"

const decodeRegistration = decodeFirst(
  Schema.Struct({
    invoice_id: InvoiceIdColumn,
    our_number: Schema.String,
    status: Invoice.BoletoRegistration,
    remessa: Schema.NullOr(Schema.String)
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
            WHERE status = 'pending' AND remessa IS NULL
            ORDER BY invoice_id
            LIMIT ${limit})
          ORDER BY i.id`.pipe(Effect.flatMap(everyInvoice), storage),

      assign: (invoiceIds, remessa, at) =>
        invoiceIds.length === 0
          ? Effect.void
          : sql`
              UPDATE boleto_registrations SET remessa = ${remessa}, updated_at = ${at}::timestamptz
              WHERE invoice_id IN ${sql.in(invoiceIds)}`.pipe(Effect.asVoid, storage),

      release: (remessa, at) =>
        sql`
          UPDATE boleto_registrations SET remessa = NULL, updated_at = ${at}::timestamptz
          WHERE remessa = ${remessa} AND status = 'pending'
          RETURNING invoice_id`.pipe(
          Effect.map((rows) => rows.length),
          storage
        ),

      findByOurNumber: (ourNumber) =>
        sql`SELECT invoice_id, our_number, status, remessa FROM boleto_registrations WHERE our_number = ${ourNumber}`.pipe(
          Effect.flatMap(decodeRegistration),
          Effect.map(
            Option.map((row) => ({
              invoiceId: row.invoice_id,
              ourNumber: row.our_number,
              status: row.status,
              remessa: row.remessa
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
