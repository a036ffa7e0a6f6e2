// An invoice as its row reads, decoded by Schema: the invoice's columns with its client's and card reference's, and
// its timeline, ledger entries and refunds aggregated as JSON; and the JSON documents stored in its columns.
import {
  Cents,
  Company,
  Document,
  FeePlan,
  Invoice,
  InvoiceStatus,
  Ledger,
  PaymentMethod,
  Timestamp
} from "@fatura/domain"
import { Schema } from "effect"
import { Integer, Json } from "./ColumnSchemas.js"
import { CardDetails, InvoiceItem, Metadata, Payer } from "./InvoiceDocuments.js"

const Text = Schema.String
const NullableText = Schema.NullOr(Schema.String)
const NullableTimestamp = Schema.NullOr(Timestamp.Timestamp)
export const InvoiceIdColumn = Integer.pipe(Schema.decodeTo(Invoice.InvoiceId))
export const CompanyIdColumn = Integer.pipe(Schema.decodeTo(Company.CompanyId))
export const ClientIdColumn = Integer.pipe(Schema.decodeTo(Invoice.ClientId))
export const CentsColumn = Integer.pipe(Schema.decodeTo(Cents.Cents))

/** The columns of a client as `upsertClient` returns them, or as an invoice's row names them with a prefix. */
export const ClientRow = Schema.Struct({
  id: ClientIdColumn,
  name: Text,
  email: Text,
  phone: NullableText,
  document_type: Document.DocumentType,
  document_number: Text,
  created_at: Timestamp.Timestamp,
  updated_at: Timestamp.Timestamp
})

export const toClient = (row: typeof ClientRow.Type): Invoice.Client => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  document: { type: row.document_type, number: row.document_number },
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const TimelineEntry = Schema.Struct({
  status: InvoiceStatus.InvoiceStatus,
  event: Text,
  created_at: Timestamp.Timestamp,
  detail: NullableText
})

const MovementEntry = Schema.Struct({
  id: Integer,
  type: Ledger.EntryType,
  direction: Ledger.Direction,
  amount: CentsColumn,
  balance: PaymentMethod.BalanceKind,
  bucket: Ledger.Bucket,
  created_at: Timestamp.Timestamp
})

export const RefundStatus = Schema.Literals(["pending", "succeeded", "failed"])

const RefundEntry = Schema.Struct({
  id: Integer,
  amount: CentsColumn,
  reason: NullableText,
  status: RefundStatus,
  failure_reason: NullableText,
  created_at: Timestamp.Timestamp
})

export const InvoiceRow = Schema.Struct({
  id: InvoiceIdColumn,
  secure_id: Invoice.SecureId,
  company_id: CompanyIdColumn,
  mode: Invoice.Mode,
  method: PaymentMethod.PaymentMethod,
  status: InvoiceStatus.InvoiceStatus,
  amount: CentsColumn,
  installments: Integer,
  created_at: Timestamp.Timestamp,
  updated_at: Timestamp.Timestamp,
  paid_at: NullableTimestamp,
  refunded_amount: CentsColumn,
  refused_reason: NullableText,
  postback_url: NullableText,
  traceable: Schema.Boolean,
  ip: NullableText,
  metadata: Schema.NullOr(Json(Metadata)),
  external_ref: NullableText,
  items: Json(Schema.Array(InvoiceItem)),
  payer: Json(Payer),
  token_checkout: Text,
  fee: Json(FeePlan.FeeSplit),
  pix_qr_code: NullableText,
  pix_txid: NullableText,
  pix_expires_at: NullableTimestamp,
  pix_end_to_end_id: NullableText,
  boleto_barcode: NullableText,
  boleto_digitable_line: NullableText,
  boleto_due_date: NullableText,
  boleto_url: NullableText,
  boleto_bank_code: NullableText,
  boleto_our_number: NullableText,
  boleto_registration: Schema.NullOr(Invoice.BoletoRegistration),
  card: Schema.NullOr(Json(CardDetails)),
  card_reference_id: Schema.NullOr(Integer),
  card_reference_brand: NullableText,
  card_reference_last_digits: NullableText,
  card_reference_created_at: NullableTimestamp,
  client_id: ClientIdColumn,
  client_name: Text,
  client_email: Text,
  client_phone: NullableText,
  client_document_type: Document.DocumentType,
  client_document_number: Text,
  client_created_at: Timestamp.Timestamp,
  client_updated_at: Timestamp.Timestamp,
  timeline: Json(Schema.Array(TimelineEntry)),
  movements: Json(Schema.Array(MovementEntry)),
  refunds: Json(Schema.Array(RefundEntry))
})

type InvoiceRow = typeof InvoiceRow.Type

// A pix charge's, a bank slip's and a card reference's columns are written together: all of them, or none.
const pixOf = (row: InvoiceRow): Invoice.PixCharge | null =>
  row.pix_qr_code === null || row.pix_txid === null || row.pix_expires_at === null
    ? null
    : {
        qrCode: row.pix_qr_code,
        txid: row.pix_txid,
        expiresAt: row.pix_expires_at,
        endToEndId: row.pix_end_to_end_id
      }

const boletoOf = (row: InvoiceRow): Invoice.BoletoSlip | null =>
  row.boleto_barcode === null ||
  row.boleto_digitable_line === null ||
  row.boleto_due_date === null ||
  row.boleto_url === null ||
  row.boleto_bank_code === null ||
  row.boleto_our_number === null
    ? null
    : {
        barcode: row.boleto_barcode,
        digitableLine: row.boleto_digitable_line,
        dueDate: row.boleto_due_date,
        url: row.boleto_url,
        bankCode: row.boleto_bank_code,
        ourNumber: row.boleto_our_number,
        // A boleto no bank was asked to register (the sandbox's) has no registration row: it is registered at once.
        registration: row.boleto_registration ?? "registered"
      }

const cardAssociateOf = (row: InvoiceRow): Invoice.CardAssociate | null =>
  row.card_reference_id === null ||
  row.card_reference_brand === null ||
  row.card_reference_last_digits === null ||
  row.card_reference_created_at === null
    ? null
    : {
        id: row.card_reference_id,
        brand: row.card_reference_brand,
        lastDigits: row.card_reference_last_digits,
        clientId: row.client_id,
        createdAt: row.card_reference_created_at
      }

export const toInvoice = (row: InvoiceRow): Invoice.Invoice => ({
  id: row.id,
  secureId: row.secure_id,
  companyId: row.company_id,
  mode: row.mode,
  method: row.method,
  status: row.status,
  amount: row.amount,
  installments: row.installments,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  paidAt: row.paid_at,
  refundedAmount: row.refunded_amount,
  refusedReason: row.refused_reason,
  postbackUrl: row.postback_url,
  traceable: row.traceable,
  ip: row.ip,
  metadata: row.metadata,
  externalRef: row.external_ref,
  items: row.items,
  payer: row.payer,
  client: {
    id: row.client_id,
    name: row.client_name,
    email: row.client_email,
    phone: row.client_phone,
    document: { type: row.client_document_type, number: row.client_document_number },
    createdAt: row.client_created_at,
    updatedAt: row.client_updated_at
  },
  tokenCheckout: row.token_checkout,
  fee: row.fee,
  pix: pixOf(row),
  boleto: boletoOf(row),
  card: row.card,
  cardAssociate: cardAssociateOf(row),
  timeline: row.timeline.map((entry) => ({
    status: entry.status,
    event: entry.event,
    createdAt: entry.created_at,
    detail: entry.detail
  })),
  refunds: row.refunds.map((entry) => ({
    id: entry.id,
    amount: entry.amount,
    reason: entry.reason,
    status: entry.status,
    failureReason: entry.failure_reason,
    createdAt: entry.created_at
  })),
  movements: row.movements.map((entry) => ({
    id: entry.id,
    type: entry.type,
    direction: entry.direction,
    amount: entry.amount,
    balance: entry.balance,
    bucket: entry.bucket,
    createdAt: entry.created_at
  }))
})
