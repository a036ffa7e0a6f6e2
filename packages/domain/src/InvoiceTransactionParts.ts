// The parts of the seed's "Invoice transaction" resource (SPEC 5.1–5.3), each with the seed's field names and types
// exactly: its items, fee, client and customer, company, invoice detail, boleto, card, ledger, refunds and timeline.
import { Schema } from "effect"
import { InvoiceStatus } from "./InvoiceStatus.js"
import { Bucket, EntryType } from "./Ledger.js"
import { PaymentMethod } from "./PaymentMethod.js"
import { Timestamp } from "./Timestamp.js"

// Integers, for ids and cents: JSON numbers with no fraction, within the doubles that hold every integer exactly.
export const Int = Schema.Int
export const NullableString = Schema.NullOr(Schema.String)
/** A positive integer id (SPEC 1). */
export const Id = Int.check(Schema.isGreaterThanOrEqualTo(1))
/** Cents that are never below zero. */
export const Cents = Int.check(Schema.isGreaterThanOrEqualTo(0))
/** A percentage as a decimal number: `1.99` is 1.99 % (SPEC 1). */
export const Percentage = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 100 }))
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
export const PixQrCode = Schema.String.annotate({
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

const waitingFunds = (balance: string) =>
  Int.annotate({
    description:
      `What the company's ${balance} receivables will make available when they fall due (SPEC 13.1), not yet in ` +
      `balance_${balance}. Absent from events recorded before it was added.`
  })

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
  // Optional for what was stored before it existed: the events recorded then, listed and posted as they were.
  bank_code: Schema.optionalKey(
    Schema.String.annotate({
      description:
        "The 3-digit COMPE code of the bank of the company's bank account; empty while it has none. Absent from " +
        "events recorded before it was added."
    })
  ),
  bank_digit: Schema.String,
  bank_name: Schema.String,
  bank_type: Schema.String,
  amount_invoice_total: Cents,
  amount_invoices_competicion: Cents,
  // A balance may go below zero: a chargeback is taken whatever is left (SPEC 7.4).
  balance_bank_slip: Int,
  balance_card: Int,
  balance_pix: Int,
  // Optional for what was stored before they existed: the events recorded then, listed and posted as they were.
  waiting_funds_bank_slip: Schema.optionalKey(waitingFunds("bank_slip")),
  waiting_funds_card: Schema.optionalKey(waitingFunds("card")),
  waiting_funds_pix: Schema.optionalKey(waitingFunds("pix")),
  blocked_bank_slip: Schema.Boolean,
  blocked_card: Schema.Boolean,
  blocked_pix: Schema.Boolean,
  blocked_processing: Schema.Boolean,
  blocked_sake: Schema.Boolean,
  blocked_system: Schema.Boolean,
  // Optional for what was stored before it existed: the events recorded then, listed and posted as they were.
  auto_withdrawal: Schema.optionalKey(
    Schema.String.annotate({
      description:
        "When the company's available money goes out by itself (SPEC 13.4): `off`, `daily`, `weekly:<1-5>` or " +
        "`monthly:<1-28>`. Absent from events recorded before it was added."
    })
  ),
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
  our_number: Schema.String,
  // Optional for the events recorded before it existed, listed and posted as they were recorded.
  registration: Schema.optionalKey(
    Schema.Literals(["pending", "registered", "rejected"]).annotate({
      description:
        "Whether the issuing bank knows the boleto: `pending` until the bank's answer to the remessa that registers " +
        "it, then `registered` (payable at any bank) or `rejected` (the invoice expires). The sandbox's are " +
        "`registered` at once. Absent from events recorded before it was added."
    })
  ),
  // Optional for the same reason.
  pix_qr_code: Schema.optionalKey(
    Schema.NullOr(Schema.String).annotate({
      description:
        "The BR Code of the pix charge with a due date that pays the boleto too (a hybrid boleto), when Fatura's pix " +
        "provider makes them; null otherwise. Whichever is paid first pays the invoice, and the other is withdrawn. " +
        "Absent from events recorded before it was added."
    })
  )
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
  type: EntryType,
  direction: Schema.Literals(["credit", "debit"]),
  amount: Cents,
  balance: Schema.Literals(["pix", "card", "bank_slip"]),
  // Optional for the events recorded before it existed, listed and posted as they were recorded.
  bucket: Schema.optionalKey(
    Bucket.annotate({
      description:
        "Where the entry's money is: `available`, or `waiting` until its receivable falls due. Absent from events " +
        "recorded before it was added."
    })
  ),
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
  created_at: Timestamp,
  detail: Schema.optionalKey(
    Schema.String.annotate({
      description: "What the move's name alone does not say, such as a boleto paid at the bank for another amount."
    })
  )
}).annotate({ identifier: "TimelineEntry" })

export const Pix = Schema.Struct({
  qrCode: PixQrCode,
  txid: Schema.optionalKey(Schema.String),
  expiresAt: Schema.optionalKey(Timestamp),
  endToEndId: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Pix" })
