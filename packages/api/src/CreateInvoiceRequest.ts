// The body of Create Invoices (SPEC 4.1): the seed's field names, with every format rule the contract sets.
// Business rules (amount range, items total) are the application's and answer 422, so they are not here.
import { Card, Document, PaymentMethod } from "@fatura/domain"
import { Result, Schema } from "effect"
import * as Rfc3339 from "./Rfc3339.js"
import { WholeNumber } from "./WholeNumber.js"

const text = (min: number, max: number) => Schema.String.check(Schema.isMinLength(min), Schema.isMaxLength(max))

const digitsOf = (value: string) => value.replace(/[\s.()/+-]/g, "")

const ufs = new Set("AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO".split(" "))

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

const isIpAddress = (value: string) => {
  if (ipv4.test(value)) return true
  if (!value.includes(":") || !/^[0-9A-Fa-f:.]+$/.test(value)) return false
  return URL.canParse(`http://[${value}]/`)
}

export const CpfCnpj = Schema.String.annotate({
  description:
    "A CPF, or a CNPJ (numeric or the 2026 alphanumeric form), with valid check digits; `.`, `-` and `/` are ignored.",
  examples: ["529.982.247-25", "11.444.777/0001-61"]
}).check(
  Schema.isMaxLength(32),
  Schema.makeFilter((value: string) => {
    const parsed = Document.parse(value)
    return Result.isSuccess(parsed) ? undefined : parsed.failure.reason
  })
)

export const Email = Schema.String.annotate({ format: "email" }).check(
  Schema.isMaxLength(254),
  Schema.makeFilter((value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) || "must be a valid email address")
)

export const Phone = Schema.String.check(
  Schema.isMaxLength(32),
  Schema.makeFilter((value: string) => /^\d{10,13}$/.test(digitsOf(value)) || "must have 10 to 13 digits")
)

export const Zip = Schema.String.check(
  Schema.isMaxLength(16),
  Schema.makeFilter((value: string) => /^\d{8}$/.test(digitsOf(value)) || "must have 8 digits")
)

export const Uf = Schema.String.check(
  Schema.makeFilter((value: string) => ufs.has(value.toUpperCase()) || "must be a Brazilian state (UF)")
)

export const IpAddress = Schema.String.annotate({ examples: ["203.0.113.7", "2001:db8::1"] }).check(
  Schema.isMaxLength(64),
  Schema.makeFilter((value: string) => isIpAddress(value) || "must be an IPv4 or IPv6 address")
)

/** An absolute http(s) URL; `""` means no postback, as in the seed's responses. */
export const PostbackUrl = Schema.String.annotate({ examples: ["https://shop.example/postbacks/fatura"] }).check(
  Schema.isMaxLength(2048),
  Schema.makeFilter((value: string) => {
    if (value === "") return undefined
    if (!URL.canParse(value)) return "must be an absolute http or https URL"
    const protocol = new URL(value).protocol
    return protocol === "http:" || protocol === "https:" ? undefined : "must be an absolute http or https URL"
  })
)

export const BooleanString = Schema.String.check(
  Schema.makeFilter((value: string) => /^(true|false|1|0)$/i.test(value) || 'must be "true", "false", "1" or "0"')
)

export const ItemInput = Schema.Struct({
  name: text(1, 255),
  description: Schema.optionalKey(text(0, 1000)),
  quantity: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 })),
  unit_price: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({ description: "Cents." })
}).annotate({ identifier: "ItemInput" })

export const PayerInput = Schema.Struct({
  name: text(1, 255),
  cpf_cnpj: CpfCnpj,
  email: Email,
  phone: Schema.optionalKey(Phone),
  address_zip: Schema.optionalKey(Zip),
  address_line: Schema.optionalKey(text(1, 255)),
  address_number: Schema.optionalKey(text(1, 32)),
  address_complement: Schema.optionalKey(text(0, 255)),
  address_city: Schema.optionalKey(text(1, 255)),
  address_state: Schema.optionalKey(Uf)
}).annotate({ identifier: "PayerInput" })

export const CardNumber = Schema.String.check(
  Schema.isMaxLength(32),
  Schema.makeFilter((value: string) => {
    const digits = Card.normalizeNumber(value)
    if (!/^\d{12,19}$/.test(digits)) return "must have 12 to 19 digits"
    return Card.luhn(digits) || "is not a valid card number"
  })
)

export const CardInput = Schema.Struct({
  token: Schema.optionalKey(text(1, 255)),
  installment: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 }))),
  number: Schema.optionalKey(CardNumber),
  first_name: Schema.optionalKey(text(1, 255)),
  last_name: Schema.optionalKey(text(1, 255)),
  month: Schema.optionalKey(
    Schema.String.check(Schema.isPattern(/^(0?[1-9]|1[0-2])$/u, { expected: "a month from 1 to 12" }))
  ),
  year: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\d{4}$/u, { expected: "a year of 4 digits" }))),
  security_code: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\d{3,4}$/u, { expected: "3 or 4 digits" }))),
  cavv: Schema.optionalKey(text(0, 255)),
  xid: Schema.optionalKey(text(0, 255)),
  eci: Schema.optionalKey(text(0, 2)),
  version: Schema.optionalKey(text(0, 16)),
  referenceid: Schema.optionalKey(text(0, 255))
}).annotate({ identifier: "CardInput" })

const Metadata = Schema.Record(Schema.String.check(Schema.isMaxLength(255)), text(0, 500)).check(
  Schema.makeFilter((value: Readonly<Record<string, string>>) =>
    Object.keys(value).length <= 50 ? undefined : "must have at most 50 keys"
  )
)

const bankSlipAddress = ["address_zip", "address_line", "address_number", "address_city", "address_state"] as const

/**
 * The amount in cents. Its range (R$ 1,00 to R$ 1.000.000,00) is a business rule, answered 422
 * `amount_out_of_range`; a number that is no integer is a 400.
 */
const TotalPriceCents = WholeNumber.check(
  Schema.makeFilter(() => undefined, {
    toJsonSchema: () => ({ minimum: 100, maximum: 100_000_000 }),
    description: "Cents, 100 to 100000000; outside that range the answer is 422 `amount_out_of_range`."
  })
)

export const CreateInvoiceRequest = Schema.Struct({
  method: PaymentMethod.PaymentMethod,
  total_price_cents: TotalPriceCents,
  items: Schema.optionalKey(Schema.Array(ItemInput).check(Schema.isMaxLength(100))),
  product_fisical: Schema.optionalKey(BooleanString),
  payer: PayerInput,
  ip_payer: Schema.optionalKey(IpAddress),
  postback_url: Schema.optionalKey(PostbackUrl),
  card: Schema.optionalKey(CardInput),
  external_ref: Schema.optionalKey(text(0, 255)),
  metadata: Schema.optionalKey(Metadata),
  expires_in: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 60, maximum: 2_592_000 }))),
  due_date: Schema.optionalKey(Rfc3339.FullDate)
})
  .annotate({ identifier: "CreateInvoiceRequest" })
  .check(
    Schema.makeFilter((request) => {
      const issues: Array<Schema.FilterIssue> = []
      if (request.card !== undefined && request.method !== "credit_card") {
        issues.push({ path: ["card"], issue: "is only allowed when method is credit_card" })
      }
      if (request.expires_in !== undefined && request.method !== "pix") {
        issues.push({ path: ["expires_in"], issue: "is only allowed when method is pix" })
      }
      if (request.due_date !== undefined && request.method !== "bank_slip") {
        issues.push({ path: ["due_date"], issue: "is only allowed when method is bank_slip" })
      }
      if (request.method === "bank_slip") {
        for (const field of bankSlipAddress) {
          if (request.payer[field] === undefined) {
            issues.push({ path: ["payer", field], issue: "is required when method is bank_slip" })
          }
        }
      }
      return issues
    })
  )
export type CreateInvoiceRequest = typeof CreateInvoiceRequest.Type
