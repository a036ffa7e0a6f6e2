// The seed's "Invoice transaction" resource (SPEC 5.1–5.3): the one JSON shape in which an invoice is
// shown to merchants, in responses and in events, with the seed's field names and types exactly. Its parts are in
// InvoiceTransactionParts.
import { Schema } from "effect"
import type { Company, CompanyTotals } from "./Company.js"
import * as Cnpj from "./Document.js"
import type { Invoice } from "./Invoice.js"
import { InvoiceStatus } from "./InvoiceStatus.js"
import {
  Amount,
  Boleto,
  Card,
  CardAssociate,
  Cents,
  Client,
  Customer,
  Enterprise,
  Fee,
  FinancialMovement,
  Id,
  Int,
  InvoiceDetail,
  Item,
  NullableString,
  Pix,
  Refund,
  SecureId,
  TimelineEntry
} from "./InvoiceTransactionParts.js"
import { PaymentMethod } from "./PaymentMethod.js"
import { Timestamp } from "./Timestamp.js"

export {
  Amount,
  Boleto,
  Card,
  CardAssociate,
  Client,
  Customer,
  Enterprise,
  Fee,
  FinancialMovement,
  InvoiceDetail,
  Item,
  Pix,
  Refund,
  SecureId,
  TimelineEntry
} from "./InvoiceTransactionParts.js"

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
  bank_code: company.bank.code,
  bank_digit: company.bank.digit,
  bank_name: company.bank.name,
  bank_type: company.bank.type,
  amount_invoice_total: totals.amountInvoiceTotal,
  amount_invoices_competicion: totals.amountInvoicesCompeticion,
  balance_bank_slip: totals.balanceBankSlip,
  balance_card: totals.balanceCard,
  balance_pix: totals.balancePix,
  waiting_funds_bank_slip: totals.waitingBankSlip,
  waiting_funds_card: totals.waitingCard,
  waiting_funds_pix: totals.waitingPix,
  blocked_bank_slip: company.blocks.bank_slip,
  blocked_card: company.blocks.card,
  blocked_pix: company.blocks.pix,
  blocked_processing: company.blocks.processing,
  blocked_sake: company.blocks.sake,
  blocked_system: company.blocks.system,
  auto_withdrawal: company.autoWithdrawal,
  is_custom: company.isCustomFeePlan,
  create_at: company.createdAt,
  update_at: company.updatedAt,
  is_active_3ds: company.isActive3ds
})

/** The Invoice transaction of an invoice, as of now, for the company that owns it. */
export const render = (invoice: Invoice, company: Company, totals: CompanyTotals): InvoiceTransaction => {
  // A pix invoice's own charge; a hybrid boleto's is shown with its boleto, and `pix` stays a pix invoice's.
  const ownPix = invoice.method === "pix" ? invoice.pix : null
  const qrCode = ownPix?.qrCode ?? ""
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
            our_number: invoice.boleto.ourNumber,
            registration: invoice.boleto.registration,
            pix_qr_code: invoice.pix?.qrCode ?? null
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
      bucket: movement.bucket,
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
      created_at: entry.createdAt,
      ...(entry.detail === null ? {} : { detail: entry.detail })
    })),
    items: invoice.items.map((item) => ({
      title: item.title,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      tangible: item.tangible,
      externalRef: null
    })),
    pix:
      ownPix === null
        ? { qrCode }
        : {
            qrCode,
            txid: ownPix.txid,
            expiresAt: ownPix.expiresAt,
            ...(ownPix.endToEndId === null ? {} : { endToEndId: ownPix.endToEndId })
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
