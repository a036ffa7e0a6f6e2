// The InvoiceRepository port in SQL. An invoice is read with its client and timeline in one round trip.
import { InvoiceRepository, type NewInvoice } from "@fatura/application"
import type { Cents, Company, Document, FeePlan, Invoice, InvoiceStatus, PaymentMethod } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { int, json, nullableText, nullableTimestamp, storage, text, timestamp } from "./Columns.js"

const toClient = (row: Record<string, unknown>, prefix: string): Invoice.Client => ({
  id: int(row[`${prefix}id`]) as Invoice.ClientId,
  name: text(row[`${prefix}name`]),
  email: text(row[`${prefix}email`]),
  phone: nullableText(row[`${prefix}phone`]),
  document: {
    type: text(row[`${prefix}document_type`]) as Document.DocumentType,
    number: text(row[`${prefix}document_number`])
  },
  createdAt: timestamp(row[`${prefix}created_at`]),
  updatedAt: timestamp(row[`${prefix}updated_at`])
})

interface TimelineRow {
  readonly status: InvoiceStatus.InvoiceStatus
  readonly event: string
  readonly created_at: string
}

const toInvoice = (row: Record<string, unknown>): Invoice.Invoice => ({
  id: int(row.id) as Invoice.InvoiceId,
  secureId: text(row.secure_id) as Invoice.SecureId,
  companyId: int(row.company_id) as Company.CompanyId,
  mode: text(row.mode) as Invoice.Mode,
  method: text(row.method) as PaymentMethod.PaymentMethod,
  status: text(row.status) as InvoiceStatus.InvoiceStatus,
  amount: int(row.amount) as Cents.Cents,
  installments: int(row.installments),
  createdAt: timestamp(row.created_at),
  updatedAt: timestamp(row.updated_at),
  paidAt: nullableTimestamp(row.paid_at),
  refundedAmount: int(row.refunded_amount) as Cents.Cents,
  refusedReason: nullableText(row.refused_reason),
  postbackUrl: nullableText(row.postback_url),
  traceable: row.traceable === true,
  ip: nullableText(row.ip),
  metadata: row.metadata === null ? null : json<Record<string, string>>(row.metadata),
  externalRef: nullableText(row.external_ref),
  items: json<ReadonlyArray<Invoice.InvoiceItem>>(row.items),
  payer: json<Invoice.Payer>(row.payer),
  client: toClient(row, "client_"),
  tokenCheckout: text(row.token_checkout),
  fee: json<FeePlan.FeeSplit>(row.fee),
  pix:
    row.pix_qr_code === null
      ? null
      : { qrCode: text(row.pix_qr_code), txid: text(row.pix_txid), expiresAt: timestamp(row.pix_expires_at) },
  timeline: json<ReadonlyArray<TimelineRow>>(row.timeline).map((entry) => ({
    status: entry.status,
    event: entry.event,
    createdAt: timestamp(entry.created_at)
  }))
})

export const layer = Layer.effect(
  InvoiceRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const selectInvoice = sql.unsafe(`
      SELECT i.id, i.secure_id::text AS secure_id, i.company_id, i.mode, i.method, i.status, i.amount,
        i.installments, i.refunded_amount, i.refused_reason, i.postback_url, i.traceable, i.ip, i.metadata,
        i.external_ref, i.items, i.payer, i.token_checkout, i.fee, i.pix_qr_code, i.pix_txid,
        fatura_ts(i.pix_expires_at) AS pix_expires_at, fatura_ts(i.created_at) AS created_at,
        fatura_ts(i.updated_at) AS updated_at, fatura_ts(i.paid_at) AS paid_at,
        c.id AS client_id, c.name AS client_name, c.email AS client_email, c.phone AS client_phone,
        c.document_type AS client_document_type, c.document_number AS client_document_number,
        fatura_ts(c.created_at) AS client_created_at, fatura_ts(c.updated_at) AS client_updated_at,
        (SELECT coalesce(json_agg(json_build_object('status', t.status, 'event', t.event,
                                                    'created_at', fatura_ts(t.created_at)) ORDER BY t.id), '[]')
           FROM invoice_timeline t WHERE t.invoice_id = i.id) AS timeline
      FROM invoices i JOIN clients c ON c.id = i.client_id`)

    return InvoiceRepository.of({
      upsertClient: (contact) =>
        sql`
          INSERT INTO clients (company_id, mode, document_type, document_number, name, email, phone, created_at,
                               updated_at)
          VALUES (${contact.companyId}, ${contact.mode}, ${contact.document.type}, ${contact.document.number}, ${contact.name},
                  ${contact.email}, ${contact.phone}, ${contact.now}::timestamptz, ${contact.now}::timestamptz)
          ON CONFLICT (company_id, mode, document_number) DO UPDATE
            SET name = excluded.name, email = excluded.email, phone = coalesce(excluded.phone, clients.phone),
                updated_at = excluded.updated_at
          RETURNING id, name, email, phone, document_type, document_number,
            fatura_ts(created_at) AS created_at, fatura_ts(updated_at) AS updated_at`.pipe(
          Effect.map((rows) => toClient(rows[0]!, "")),
          storage
        ),

      insert: (invoice: NewInvoice, client, first) =>
        Effect.gen(function* () {
          const inserted = yield* sql`
            INSERT INTO invoices (secure_id, company_id, client_id, mode, method, status, amount, installments,
              refunded_amount, refused_reason, postback_url, traceable, ip, metadata, external_ref, items, payer,
              token_checkout, fee, pix_qr_code, pix_txid, pix_expires_at, created_at, updated_at, paid_at)
            VALUES (${invoice.secureId}::uuid, ${invoice.companyId}, ${client.id}, ${invoice.mode}, ${invoice.method},
              ${invoice.status}, ${invoice.amount}, ${invoice.installments}, ${invoice.refundedAmount},
              ${invoice.refusedReason}, ${invoice.postbackUrl}, ${invoice.traceable}, ${invoice.ip},
              ${invoice.metadata === null ? null : JSON.stringify(invoice.metadata)}::jsonb, ${invoice.externalRef},
              ${JSON.stringify(invoice.items)}::jsonb, ${JSON.stringify(invoice.payer)}::jsonb,
              ${invoice.tokenCheckout}, ${JSON.stringify(invoice.fee)}::jsonb, ${invoice.pix?.qrCode ?? null},
              ${invoice.pix?.txid ?? null}, ${invoice.pix?.expiresAt ?? null}::timestamptz,
              ${invoice.createdAt}::timestamptz, ${invoice.updatedAt}::timestamptz, ${invoice.paidAt}::timestamptz)
            RETURNING id`
          const id = int(inserted[0]!.id) as Invoice.InvoiceId
          yield* sql`
            INSERT INTO invoice_timeline (invoice_id, status, event, created_at)
            VALUES (${id}, ${first.status}, ${first.event}, ${invoice.createdAt}::timestamptz)`
          return {
            ...invoice,
            id,
            client,
            timeline: [{ status: first.status, event: first.event, createdAt: invoice.createdAt }]
          } satisfies Invoice.Invoice
        }).pipe(storage),

      find: (companyId, mode, reference) =>
        (reference._tag === "Id"
          ? sql`${selectInvoice} WHERE i.id = ${reference.id} AND i.company_id = ${companyId} AND i.mode = ${mode}`
          : sql`${selectInvoice}
              WHERE i.secure_id = ${reference.secureId}::uuid AND i.company_id = ${companyId} AND i.mode = ${mode}`
        ).pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toInvoice)),
          storage
        ),

      recordEvent: (event) =>
        sql`
          INSERT INTO events (id, company_id, invoice_id, type, livemode, data, created_at)
          VALUES (${event.id}, ${event.companyId}, ${event.invoiceId}, ${event.type}, ${event.livemode},
                  ${JSON.stringify(event.data)}::jsonb, ${event.createdAt}::timestamptz)`.pipe(Effect.asVoid, storage)
    })
  })
)
