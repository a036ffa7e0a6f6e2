// What the invoices' use cases take and answer: a create request whose shape and formats the contract has already
// checked (its business rules are checked by the use case), a list query, and an invoice with its company's totals.
import type { Card, Company, Document, Invoice, InvoiceStatus, PaymentMethod, Timestamp } from "@fatura/domain"
import type { CardInput } from "../cards/CardPayment.js"
import type {
  AcquirerUnavailable,
  CompanyBlocked,
  InvalidCardData,
  InvalidDueDate,
  PixProviderRefused,
  PixProviderUnavailable,
  StorageUnavailable,
  UnusablePixKey
} from "../platform/Failures.js"
import type { LeaseLost } from "../platform/IdempotencyStore.js"
import type { PostbackTargetRefused } from "../postbacks/PostbackTargets.js"

export interface ItemInput {
  readonly name: string
  readonly description: string | null
  readonly quantity: number
  readonly unitPrice: number
}

/** A create request whose shape and formats the contract has already checked; business rules are checked here. */
export interface CreateInvoiceInput {
  readonly method: PaymentMethod.PaymentMethod
  readonly totalPriceCents: number
  readonly items: ReadonlyArray<ItemInput> | null
  readonly tangible: boolean
  readonly payer: {
    readonly name: string
    readonly document: Document.Document
    readonly email: string
    readonly phone: string | null
    readonly address: Invoice.PayerAddress
  }
  readonly ip: string | null
  readonly postbackUrl: string | null
  readonly externalRef: string | null
  readonly metadata: Readonly<Record<string, string>> | null
  readonly expiresIn: number | null
  readonly dueDate: string | null
  readonly card: CardInput | null
}

export interface InvoiceView {
  readonly invoice: Invoice.Invoice
  readonly company: Company.Company
  readonly totals: Company.CompanyTotals
}

export interface ListQuery {
  readonly limit: number
  readonly startingAfter: string | null
  readonly status: InvoiceStatus.InvoiceStatus | null
  readonly method: PaymentMethod.PaymentMethod | null
  readonly createdGte: Timestamp.Timestamp | null
  readonly createdLte: Timestamp.Timestamp | null
  readonly externalRef: string | null
}

export interface InvoicePage {
  readonly invoices: ReadonlyArray<Invoice.Invoice>
  readonly company: Company.Company
  readonly totals: Company.CompanyTotals
  readonly hasMore: boolean
}

export type CreateInvoiceFailure =
  | CompanyBlocked
  | Invoice.AmountOutOfRange
  | Invoice.TotalMismatch
  | Card.InstallmentTooSmall
  | InvalidCardData
  | InvalidDueDate
  | AcquirerUnavailable
  | PixProviderUnavailable
  | PixProviderRefused
  | PostbackTargetRefused
  | UnusablePixKey
  | LeaseLost
  | StorageUnavailable
