// The JSON documents an invoice keeps in its columns (items, payer, card, fee) and a card charge keeps in its own (its
// terms, and the invoice it is to create), as Schema decodes them.
import { Cents, Company, Document, FeePlan, Invoice, InvoiceStatus, PaymentMethod, Timestamp } from "@fatura/domain"
import { Schema } from "effect"

const Text = Schema.String
const NullableText = Schema.NullOr(Schema.String)
const NullableTimestamp = Schema.NullOr(Timestamp.Timestamp)

export const InvoiceItem = Schema.Struct({
  title: Text,
  description: NullableText,
  quantity: Schema.Int,
  unitPrice: Cents.Cents,
  tangible: Schema.Boolean
})

export const Payer = Schema.Struct({
  name: Text,
  document: Document.Document,
  email: Text,
  phone: NullableText,
  address: Schema.Struct({
    zip: NullableText,
    line: NullableText,
    number: NullableText,
    complement: NullableText,
    city: NullableText,
    state: NullableText
  })
})

export const CardDetails = Schema.Struct({
  brand: Text,
  firstDigits: Text,
  lastDigits: Text,
  holderName: Text,
  expirationMonth: Schema.Int,
  expirationYear: Schema.Int,
  threeDSecure: Schema.NullOr(
    Schema.Struct({ eci: NullableText, version: NullableText, authenticated: Schema.Boolean })
  )
})

export const Metadata = Schema.Record(Schema.String, Schema.String)

/** An invoice as it is drafted (a card charge keeps it as JSON until the charge settles). */
export const NewInvoiceJson = Schema.Struct({
  secureId: Invoice.SecureId,
  companyId: Company.CompanyId,
  mode: Invoice.Mode,
  method: PaymentMethod.PaymentMethod,
  status: InvoiceStatus.InvoiceStatus,
  amount: Cents.Cents,
  installments: Schema.Int,
  createdAt: Timestamp.Timestamp,
  updatedAt: Timestamp.Timestamp,
  paidAt: NullableTimestamp,
  refundedAmount: Cents.Cents,
  refusedReason: NullableText,
  postbackUrl: NullableText,
  traceable: Schema.Boolean,
  ip: NullableText,
  metadata: Schema.NullOr(Metadata),
  externalRef: NullableText,
  items: Schema.Array(InvoiceItem),
  payer: Payer,
  tokenCheckout: Text,
  fee: FeePlan.FeeSplit,
  pix: Schema.NullOr(
    Schema.Struct({ qrCode: Text, txid: Text, expiresAt: Timestamp.Timestamp, endToEndId: NullableText })
  ),
  boleto: Schema.NullOr(
    Schema.Struct({
      barcode: Text,
      digitableLine: Text,
      dueDate: Text,
      url: Text,
      bankCode: Text,
      ourNumber: Text,
      registration: Invoice.BoletoRegistration
    })
  ),
  card: Schema.NullOr(CardDetails)
})

export const ClientJson = Schema.Struct({
  id: Invoice.ClientId,
  name: Text,
  email: Text,
  phone: NullableText,
  document: Document.Document,
  createdAt: Timestamp.Timestamp,
  updatedAt: Timestamp.Timestamp
})

export const CardAssociateJson = Schema.Struct({
  id: Schema.Int,
  brand: Text,
  lastDigits: Text,
  clientId: Invoice.ClientId,
  createdAt: Timestamp.Timestamp
})

export const CardChargeTermsJson = Schema.Struct({
  installments: Schema.Int,
  fee: FeePlan.FeeSplit,
  card: CardDetails,
  cardAssociate: CardAssociateJson
})

export const CardChargeDraftJson = Schema.Struct({ invoice: NewInvoiceJson, client: ClientJson })
