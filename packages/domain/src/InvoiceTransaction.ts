// The seed's "Invoice transaction" resource (SPEC 5.1–5.3): the one JSON shape in which an invoice is
// shown to merchants, in responses and in events, with the seed's field names and types exactly.
import { Schema } from "effect"
import type { Company, CompanyTotals } from "./Company.js"
import * as Cnpj from "./Document.js"
import type { Invoice } from "./Invoice.js"
import { InvoiceStatus } from "./InvoiceStatus.js"
import { PaymentMethod } from "./PaymentMethod.js"
import { Timestamp } from "./Timestamp.js"

// Integers, for ids and cents: JSON numbers with no fraction, within the doubles that hold every integer exactly.
const Int = Schema.Int
const NullableString = Schema.NullOr(Schema.String)
/** A positive integer id (SPEC 1). */
const Id = Int.check(Schema.isGreaterThanOrEqualTo(1))
/** Cents that are never below zero. */
const Cents = Int.check(Schema.isGreaterThanOrEqualTo(0))
/** A percentage as a decimal number: `1.99` is 1.99 % (SPEC 1). */
const Percentage = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 100 }))
// Patterns carry the `u` flag so that JSON Schema (and the OpenAPI document) states them as written.
const digits = (count: number) => Schema.String.check(Schema.isPattern(new RegExp(`^\\d{${count}}$`, "u")))

/** An invoice's secureId (SPEC 1): a lowercase random UUID. */
export const SecureId = Schema.String.annotate({
  format: "uuid",
  examples: ["5f0c8a52-8a3e-4c4e-9d0b-1f2e3a4b5c6d"]
}).check(
  Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u, {
    expected: "a lowercase UUID v4"
  })
)

/** An invoice's amount (SPEC 4.1): R$ 1,00 to R$ 1.000.000,00, in cents. */
export const Amount = Int.check(Schema.isBetween({ minimum: 100, maximum: 100_000_000 }))

/** A CPF (11 digits) or a CNPJ (14, the first 12 of which may be letters in the 2026 form), unformatted. */
const DocumentNumber = Schema.String.annotate({ examples: ["52998224725", "11444777000161"] }).check(
  Schema.isPattern(/^(?:\d{11}|[0-9A-Z]{12}\d{2})$/u, { expected: "a CPF or CNPJ without formatting" })
)

/** A pix BR Code (SPEC 6.1), or `""` for an invoice that is not pix. */
const PixQrCode = Schema.String.annotate({
  description: "The pix copy-and-paste BR Code (EMV), or an empty string when the invoice is not pix.",
  examples: [
    "00020101021226580014br.gov.bcb.pix0136123e4567-e89b-12d3-a456-4266141740005204000053039865406123.455802BR5913Padaria Sao J6009Sao Paulo62070503***6304ABCD"
  ]
}).check(Schema.isPattern(/^(?:|000201[\s\S]*6304[0-9A-F]{4})$/u, { expected: "a BR Code or an empty string" }))

export const Item = Schema.Struct({
  title: Schema.String,
  quantity: Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 })),
  unitPrice: Cents,
  tangible: Schema.Boolean,
  externalRef: NullableString
}).annotate({ identifier: "Item" })

/** The fee of an invoice (SPEC 7.3): cents, and the plan's percentage. */
export const Fee = Schema.Struct({
  estimatedFee: Cents,
  fixedAmount: Cents,
  netAmount: Cents,
  spreadPercentage: Percentage
}).annotate({ identifier: "Fee" })

export const Client = Schema.Struct({
  id: Id,
  name: Schema.String,
  email: Schema.String,
  phone: Schema.String,
  cpf_cnpj: DocumentNumber,
  created_at: Timestamp,
  updated_at: Timestamp
}).annotate({ identifier: "Client" })

export const Customer = Schema.Struct({
  id: Id,
  name: Schema.String,
  email: Schema.String,
  phone: Schema.String,
  birthdate: NullableString,
  createdAt: Timestamp,
  externalRef: NullableString,
  document: Schema.Struct({ number: DocumentNumber, type: Schema.Literals(["cpf", "cnpj"]) }),
  address: Schema.Struct({
    street: Schema.String,
    streetNumber: Schema.String,
    neighborhood: Schema.String,
    city: Schema.String,
    state: Schema.String,
    zipCode: Schema.String,
    complement: NullableString,
    country: Schema.String
  })
}).annotate({ identifier: "Customer" })

export const Enterprise = Schema.Struct({
  id: Id,
  cnpj: Schema.String.annotate({ examples: ["11.444.777/0001-61"] }).check(
    Schema.isPattern(/^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/u, { expected: "a formatted CNPJ" })
  ),
  company_type: Schema.String,
  corporate_reason: Schema.String,
  fantasy_name: Schema.String,
  url_website: Schema.String,
  address: Schema.String,
  address_city: Schema.String,
  address_number: Schema.String,
  address_postal_code: Schema.String,
  address_province: Schema.String,
  address_state: Schema.String,
  bank_account: Schema.String,
  bank_agency: Schema.String,
  bank_digit: Schema.String,
  bank_name: Schema.String,
  bank_type: Schema.String,
  amount_invoice_total: Cents,
  amount_invoices_competicion: Cents,
  // A balance may go below zero: a chargeback is taken whatever is left (SPEC 7.4).
  balance_bank_slip: Int,
  balance_card: Int,
  balance_pix: Int,
  blocked_bank_slip: Schema.Boolean,
  blocked_card: Schema.Boolean,
  blocked_pix: Schema.Boolean,
  blocked_processing: Schema.Boolean,
  blocked_sake: Schema.Boolean,
  blocked_system: Schema.Boolean,
  is_custom: Schema.Boolean,
  create_at: Timestamp,
  update_at: Timestamp,
  is_active_3ds: Schema.Boolean
}).annotate({ identifier: "Enterprise" })
export type Enterprise = typeof Enterprise.Type

export const InvoiceDetail = Schema.Struct({
  id: Id,
  invoice_id: SecureId,
  invoice_id_external: NullableString,
  invoice_id_external2: NullableString,
  invoice_id_external3: NullableString,
  payment_method: PaymentMethod,
  status: InvoiceStatus,
  is_pix: Schema.Boolean,
  is_bank_slip: Schema.Boolean,
  is_credit_card: Schema.Boolean,
  is_anticipated: Schema.Boolean,
  anticipation_approved: Schema.Boolean,
  is_indication_tax: Schema.Boolean,
  postback_url: Schema.String,
  qr_code_pix: PixQrCode,
  token_checkout: Schema.String,
  retention_tax: Percentage,
  value_adq: Cents,
  value_platform: Cents,
  value_indication: Cents,
  value_seller: Cents,
  value_total: Amount,
  created_at: Timestamp,
  updated_at: Timestamp
}).annotate({ identifier: "InvoiceDetail" })

export const Boleto = Schema.Struct({
  barcode: digits(44),
  digitable_line: digits(47),
  due_date: Schema.String.annotate({ format: "date" }).check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u)),
  url: Schema.String.annotate({ format: "uri" }),
  bank_code: digits(3),
  our_number: Schema.String
}).annotate({ identifier: "Boleto" })

export const Card = Schema.Struct({
  brand: Schema.String,
  first_digits: digits(6),
  last_digits: digits(4),
  holder_name: Schema.String,
  expiration_month: Int.check(Schema.isBetween({ minimum: 1, maximum: 12 })),
  expiration_year: Int.check(Schema.isBetween({ minimum: 2000, maximum: 9999 })),
  three_d_secure: Schema.NullOr(
    Schema.Struct({ eci: NullableString, version: NullableString, authenticated: Schema.Boolean })
  )
}).annotate({ identifier: "Card" })

export const CardAssociate = Schema.Struct({
  id: Id,
  brand: Schema.String,
  last_digits: digits(4),
  client_id: Id,
  created_at: Timestamp
}).annotate({ identifier: "CardAssociate" })

export const FinancialMovement = Schema.Struct({
  id: Id,
  type: Schema.Literals(["payment", "fee", "refund", "refund_reversal", "chargeback"]),
  direction: Schema.Literals(["credit", "debit"]),
  amount: Cents,
  balance: Schema.Literals(["pix", "card", "bank_slip"]),
  created_at: Timestamp
}).annotate({ identifier: "FinancialMovement" })

export const Refund = Schema.Struct({
  id: Id,
  amount: Int.check(Schema.isGreaterThanOrEqualTo(1)),
  reason: NullableString,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  failure_reason: Schema.optionalKey(Schema.String),
  created_at: Timestamp
}).annotate({ identifier: "Refund" })

export const TimelineEntry = Schema.Struct({
  status: InvoiceStatus,
  event: Schema.String,
  created_at: Timestamp
}).annotate({ identifier: "TimelineEntry" })

export const Pix = Schema.Struct({
  qrCode: PixQrCode,
  txid: Schema.optionalKey(Schema.String),
  expiresAt: Schema.optionalKey(Timestamp),
  endToEndId: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Pix" })

/** The seed's `delivery` and `shipping`: an object or null; no request field fills them, so they are null. */
const Unfilled = Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)).annotate({
  description: "An object or null in the seed's shape; no request field fills it, so it is always null."
})

/** A split of the payment among receivers: none is ever made, so `splits` is always empty. */
const Split = Schema.Record(Schema.String, Schema.Unknown).annotate({ identifier: "Split" })

export const InvoiceTransaction = Schema.Struct({
  id: Id,
  secureId: SecureId,
  companyId: Id,
  amount: Amount,
  installments: Int.check(Schema.isBetween({ minimum: 1, maximum: 12 })),
  paymentMethod: PaymentMethod,
  status: InvoiceStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  paidAt: Schema.NullOr(Timestamp),
  refundedAmount: Cents,
  refusedReason: NullableString,
  postbackUrl: Schema.String,
  traceable: Schema.Boolean,
  boleto: Schema.NullOr(Boleto),
  card: Schema.NullOr(Card),
  card_associate: Schema.NullOr(CardAssociate),
  delivery: Unfilled,
  shipping: Unfilled,
  ip: NullableString,
  metadata: Schema.NullOr(Schema.Record(Schema.String, Schema.String)),
  externalRef: NullableString,
  financial_movements: Schema.Array(FinancialMovement),
  refunds: Schema.Array(Refund),
  splits: Schema.Array(Split).check(Schema.isMaxLength(0)),
  timeline: Schema.Array(TimelineEntry),
  items: Schema.Array(Item),
  pix: Pix,
  fee: Fee,
  client: Client,
  customer: Customer,
  enterprise: Enterprise,
  invoice: InvoiceDetail
}).annotate({
  identifier: "InvoiceTransaction",
  description: "An invoice as merchants see it, in responses and in events (the seed's Invoice transaction)."
})
export type InvoiceTransaction = typeof InvoiceTransaction.Type

/** The Enterprise object of a company with its current totals (SPEC 5.3). */
export const renderEnterprise = (company: Company, totals: CompanyTotals): Enterprise => ({
  id: company.id,
  cnpj: Cnpj.formatCnpj(company.cnpj),
  company_type: company.companyType,
  corporate_reason: company.corporateReason,
  fantasy_name: company.fantasyName,
  url_website: company.urlWebsite,
  address: company.address.street,
  address_city: company.address.city,
  address_number: company.address.number,
  address_postal_code: company.address.postalCode,
  address_province: company.address.province,
  address_state: company.address.state,
  bank_account: company.bank.account,
  bank_agency: company.bank.agency,
  bank_digit: company.bank.digit,
  bank_name: company.bank.name,
  bank_type: company.bank.type,
  amount_invoice_total: totals.amountInvoiceTotal,
  amount_invoices_competicion: totals.amountInvoicesCompeticion,
  balance_bank_slip: totals.balanceBankSlip,
  balance_card: totals.balanceCard,
  balance_pix: totals.balancePix,
  blocked_bank_slip: company.blocks.bank_slip,
  blocked_card: company.blocks.card,
  blocked_pix: company.blocks.pix,
  blocked_processing: company.blocks.processing,
  blocked_sake: company.blocks.sake,
  blocked_system: company.blocks.system,
  is_custom: company.isCustomFeePlan,
  create_at: company.createdAt,
  update_at: company.updatedAt,
  is_active_3ds: company.isActive3ds
})

/** The Invoice transaction of an invoice, as of now, for the company that owns it. */
export const render = (invoice: Invoice, company: Company, totals: CompanyTotals): InvoiceTransaction => {
  const qrCode = invoice.pix?.qrCode ?? ""
  const postbackUrl = invoice.postbackUrl ?? ""
  const payer = invoice.payer
  return {
    id: invoice.id,
    secureId: invoice.secureId,
    companyId: invoice.companyId,
    amount: invoice.amount,
    installments: invoice.installments,
    paymentMethod: invoice.method,
    status: invoice.status,
    createdAt: invoice.createdAt,
    updatedAt: invoice.updatedAt,
    paidAt: invoice.paidAt,
    refundedAmount: invoice.refundedAmount,
    refusedReason: invoice.refusedReason,
    postbackUrl,
    traceable: invoice.traceable,
    boleto:
      invoice.boleto === null
        ? null
        : {
            barcode: invoice.boleto.barcode,
            digitable_line: invoice.boleto.digitableLine,
            due_date: invoice.boleto.dueDate,
            url: invoice.boleto.url,
            bank_code: invoice.boleto.bankCode,
            our_number: invoice.boleto.ourNumber
          },
    card:
      invoice.card === null
        ? null
        : {
            brand: invoice.card.brand,
            first_digits: invoice.card.firstDigits,
            last_digits: invoice.card.lastDigits,
            holder_name: invoice.card.holderName,
            expiration_month: invoice.card.expirationMonth,
            expiration_year: invoice.card.expirationYear,
            three_d_secure: invoice.card.threeDSecure
          },
    card_associate:
      invoice.cardAssociate === null
        ? null
        : {
            id: invoice.cardAssociate.id,
            brand: invoice.cardAssociate.brand,
            last_digits: invoice.cardAssociate.lastDigits,
            client_id: invoice.cardAssociate.clientId,
            created_at: invoice.cardAssociate.createdAt
          },
    delivery: null,
    shipping: null,
    ip: invoice.ip,
    metadata: invoice.metadata,
    externalRef: invoice.externalRef,
    financial_movements: invoice.movements.map((movement) => ({
      id: movement.id,
      type: movement.type,
      direction: movement.direction,
      amount: movement.amount,
      balance: movement.balance,
      created_at: movement.createdAt
    })),
    refunds: invoice.refunds.map((refund) => ({
      id: refund.id,
      amount: refund.amount,
      reason: refund.reason,
      status: refund.status,
      ...(refund.failureReason === null ? {} : { failure_reason: refund.failureReason }),
      created_at: refund.createdAt
    })),
    splits: [],
    timeline: invoice.timeline.map((entry) => ({
      status: entry.status,
      event: entry.event,
      created_at: entry.createdAt
    })),
    items: invoice.items.map((item) => ({
      title: item.title,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      tangible: item.tangible,
      externalRef: null
    })),
    pix:
      invoice.pix === null
        ? { qrCode }
        : {
            qrCode,
            txid: invoice.pix.txid,
            expiresAt: invoice.pix.expiresAt,
            ...(invoice.pix.endToEndId === null ? {} : { endToEndId: invoice.pix.endToEndId })
          },
    fee: {
      estimatedFee: invoice.fee.estimatedFee,
      fixedAmount: invoice.fee.fixedAmount,
      netAmount: invoice.fee.netAmount,
      spreadPercentage: invoice.fee.spreadPercentage
    },
    client: {
      id: invoice.client.id,
      name: invoice.client.name,
      email: invoice.client.email,
      phone: invoice.client.phone ?? "",
      cpf_cnpj: invoice.client.document.number,
      created_at: invoice.client.createdAt,
      updated_at: invoice.client.updatedAt
    },
    customer: {
      id: invoice.client.id,
      name: payer.name,
      email: payer.email,
      phone: payer.phone ?? "",
      birthdate: null,
      createdAt: invoice.createdAt,
      externalRef: null,
      document: { number: payer.document.number, type: payer.document.type },
      address: {
        street: payer.address.line ?? "",
        streetNumber: payer.address.number ?? "",
        neighborhood: "",
        city: payer.address.city ?? "",
        state: payer.address.state ?? "",
        zipCode: payer.address.zip ?? "",
        complement: payer.address.complement,
        country: "BR"
      }
    },
    enterprise: renderEnterprise(company, totals),
    invoice: {
      id: invoice.id,
      invoice_id: invoice.secureId,
      invoice_id_external: invoice.externalRef,
      invoice_id_external2: null,
      invoice_id_external3: null,
      payment_method: invoice.method,
      status: invoice.status,
      is_pix: invoice.method === "pix",
      is_bank_slip: invoice.method === "bank_slip",
      is_credit_card: invoice.method === "credit_card",
      is_anticipated: false,
      anticipation_approved: false,
      is_indication_tax: company.feePlan.referrerPercentage > 0,
      postback_url: postbackUrl,
      qr_code_pix: qrCode,
      token_checkout: invoice.tokenCheckout,
      retention_tax: company.feePlan.retentionPercentage,
      value_adq: invoice.fee.valueAdq,
      value_platform: invoice.fee.valuePlatform,
      value_indication: invoice.fee.valueIndication,
      value_seller: invoice.fee.valueSeller,
      value_total: invoice.fee.valueTotal,
      created_at: invoice.createdAt,
      updated_at: invoice.updatedAt
    }
  }
}
