// A payment invoice: what the payer owes, how, and everything that has happened to it since.
import { Result, Schema } from "effect"
import type { Cents } from "./Cents.js"
import type { CompanyId } from "./Company.js"
import type { Document } from "./Document.js"
import type { FeeSplit } from "./FeePlan.js"
import type { InvoiceStatus } from "./InvoiceStatus.js"
import type { Entry } from "./Ledger.js"
import type { PaymentMethod } from "./PaymentMethod.js"
import type { Timestamp } from "./Timestamp.js"

export const InvoiceId = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1)), Schema.brand("InvoiceId"))
export type InvoiceId = typeof InvoiceId.Type

export const SecureId = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)),
  Schema.brand("SecureId")
)
export type SecureId = typeof SecureId.Type

export const ClientId = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1)), Schema.brand("ClientId"))
export type ClientId = typeof ClientId.Type

/** Test objects are made by sandbox keys, live ones by live keys; the two never mix. */
export const Mode = Schema.Literals(["test", "live"])
export type Mode = typeof Mode.Type

export const minimumAmount = 100
export const maximumAmount = 100_000_000

/** The one item an invoice created without `items` gets, for its whole amount (SPEC 5.1). */
export const defaultItemTitle = "Invoice"

export interface InvoiceItem {
  readonly title: string
  readonly description: string | null
  readonly quantity: number
  readonly unitPrice: Cents
  readonly tangible: boolean
}

/** What a payer's app shows of a charge: its items, quantities first, in at most 140 characters. */
export const chargeSummary = (items: ReadonlyArray<InvoiceItem>): string => {
  const text = items.map((item) => (item.quantity === 1 ? item.title : `${item.quantity} x ${item.title}`)).join(", ")
  return text.length <= 140 ? text : `${text.slice(0, 139)}…`
}

export interface PayerAddress {
  readonly zip: string | null
  readonly line: string | null
  readonly number: string | null
  readonly complement: string | null
  readonly city: string | null
  readonly state: string | null
}

export interface Payer {
  readonly name: string
  readonly document: Document
  readonly email: string
  readonly phone: string | null
  readonly address: PayerAddress
}

/** The company's record of a payer, one per document; later invoices refresh its contact data. */
export interface Client {
  readonly id: ClientId
  readonly name: string
  readonly email: string
  readonly phone: string | null
  readonly document: Document
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
}

export interface TimelineEntry {
  readonly status: InvoiceStatus
  readonly event: string
  readonly createdAt: Timestamp
  /** What the move's name alone does not say (a boleto paid at the bank for another amount); null when nothing. */
  readonly detail: string | null
}

export interface PixCharge {
  readonly qrCode: string
  readonly txid: string
  readonly expiresAt: Timestamp
  /** The end-to-end id of the pix that paid it, when a provider's pix did (not the sandbox helper). */
  readonly endToEndId: string | null
}

export interface BoletoSlip {
  readonly barcode: string
  readonly digitableLine: string
  /** The business date (São Paulo) after which the slip can no longer be paid. */
  readonly dueDate: string
  readonly url: string
  readonly bankCode: string
  readonly ourNumber: string
  /**
   * Whether the bank that issued it knows it (SPEC 15.1): a bank registers a boleto from a remessa (`pending` until
   * its retorno says); the sandbox's are `registered` at once.
   */
  readonly registration: BoletoRegistration
}

export const BoletoRegistration = Schema.Literals(["pending", "registered", "rejected"])
export type BoletoRegistration = typeof BoletoRegistration.Type

export interface ThreeDSecureData {
  readonly eci: string | null
  readonly version: string | null
  readonly authenticated: boolean
}

/** What is kept of a card: never its full number, never its security code. */
export interface CardDetails {
  readonly brand: string
  readonly firstDigits: string
  readonly lastDigits: string
  readonly holderName: string
  readonly expirationMonth: number
  readonly expirationYear: number
  readonly threeDSecure: ThreeDSecureData | null
}

/** The company's reference to a card a client paid with, one per distinct card per client. */
export interface CardAssociate {
  readonly id: number
  readonly brand: string
  readonly lastDigits: string
  readonly clientId: ClientId
  readonly createdAt: Timestamp
}

/** One ledger entry of the invoice (SPEC 7.4). */
export interface Movement extends Entry {
  readonly id: number
  readonly createdAt: Timestamp
}

/**
 * Where a refund stands: `succeeded` once the money went back; `pending` while a provider that returns money later
 * (a pix return) has not said; `failed` when it refused, and the balance it held was given back.
 */
export type RefundStatus = "pending" | "succeeded" | "failed"

export interface RefundRecord {
  readonly id: number
  readonly amount: Cents
  readonly reason: string | null
  readonly status: RefundStatus
  /** Why the provider refused it, once `failed`. */
  readonly failureReason: string | null
  readonly createdAt: Timestamp
}

export interface Invoice {
  readonly id: InvoiceId
  readonly secureId: SecureId
  readonly companyId: CompanyId
  readonly mode: Mode
  readonly method: PaymentMethod
  readonly status: InvoiceStatus
  readonly amount: Cents
  readonly installments: number
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
  readonly paidAt: Timestamp | null
  readonly refundedAmount: Cents
  readonly refusedReason: string | null
  readonly postbackUrl: string | null
  readonly traceable: boolean
  readonly ip: string | null
  readonly metadata: Readonly<Record<string, string>> | null
  readonly externalRef: string | null
  readonly items: ReadonlyArray<InvoiceItem>
  readonly payer: Payer
  readonly client: Client
  readonly tokenCheckout: string
  readonly fee: FeeSplit
  /**
   * The pix charge that pays it: a pix invoice's own, or, beside the slip of a hybrid boleto, the charge with a due
   * date that pays the boleto by pix (SPEC 15.1).
   */
  readonly pix: PixCharge | null
  readonly boleto: BoletoSlip | null
  readonly card: CardDetails | null
  readonly cardAssociate: CardAssociate | null
  readonly timeline: ReadonlyArray<TimelineEntry>
  readonly movements: ReadonlyArray<Movement>
  readonly refunds: ReadonlyArray<RefundRecord>
}

export class AmountOutOfRange extends Schema.TaggedError<AmountOutOfRange>()("AmountOutOfRange", {
  amount: Schema.Number
}) {
  override get message() {
    return `total_price_cents must be between ${minimumAmount} and ${maximumAmount}, got ${this.amount}`
  }
}

export class TotalMismatch extends Schema.TaggedError<TotalMismatch>()("TotalMismatch", {
  total: Schema.Number,
  itemsTotal: Schema.Number
}) {
  override get message() {
    return `the items add up to ${this.itemsTotal} but total_price_cents is ${this.total}`
  }
}

/** An invoice amount is between R$ 1,00 and R$ 1.000.000,00 (SPEC 4.1). */
export const checkAmount = (amount: number): Result.Result<Cents, AmountOutOfRange> =>
  Number.isSafeInteger(amount) && amount >= minimumAmount && amount <= maximumAmount
    ? Result.succeed(amount as Cents)
    : Result.fail(new AmountOutOfRange({ amount }))

/** Items, when given, must add up to the total exactly. */
export const checkItemsTotal = (
  items: ReadonlyArray<Pick<InvoiceItem, "quantity" | "unitPrice">>,
  total: Cents
): Result.Result<void, TotalMismatch> => {
  const itemsTotal = items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0)
  return itemsTotal === total ? Result.void : Result.fail(new TotalMismatch({ total, itemsTotal }))
}
