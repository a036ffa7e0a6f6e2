// Card rules of SPEC 6.3: the number (Luhn, brand, masking), expiry, security code, the 3-D Secure outcome and
// the split of an amount into installments.
import { Result, Schema } from "effect"
import * as Cents from "./Cents.js"

/** The request fields a card error can point at. */
export const CardField = Schema.Literals(["number", "month", "year", "security_code"])
export type CardField = typeof CardField.Type

export class InvalidCard extends Schema.TaggedError<InvalidCard>()("InvalidCard", {
  field: CardField,
  reason: Schema.String
}) {
  override get message(): string {
    return `card ${this.field}: ${this.reason}`
  }
}

const invalid = (field: CardField, reason: string) => Result.fail(new InvalidCard({ field, reason }))

// --- Number ----------------------------------------------------------------------------------------------

/** The number as typed, with the spaces and dashes people group it with taken out. */
export const normalizeNumber = (input: string): string => input.replace(/[\s-]/g, "")

/** The Luhn checksum of a string of digits; false for anything else, the empty string included. */
export const luhn = (number: string): boolean => {
  if (!/^\d+$/.test(number)) return false
  let sum = 0
  for (let i = 0; i < number.length; i++) {
    // Every second digit from the right, the check digit itself not counted, is doubled.
    const digit = (number.charCodeAt(number.length - 1 - i) - 48) * (i % 2 === 1 ? 2 : 1)
    sum += digit > 9 ? digit - 9 : digit
  }
  return sum % 10 === 0
}

/** A card number as typed: normalized, 12–19 digits (ISO/IEC 7812) and passing Luhn. */
export const parseNumber = (input: string): Result.Result<string, InvalidCard> => {
  const number = normalizeNumber(input)
  if (!/^\d{12,19}$/.test(number)) return invalid("number", "must be 12 to 19 digits")
  if (!luhn(number)) return invalid("number", "fails the Luhn check")
  return Result.succeed(number)
}

/** What may be kept and shown of a number (SPEC 5.1): never more than the first 6 and the last 4 digits. */
export interface Masked {
  readonly firstDigits: string
  readonly lastDigits: string
}

export const mask = (number: string): Masked => ({ firstDigits: number.slice(0, 6), lastDigits: number.slice(-4) })

// --- Brand -----------------------------------------------------------------------------------------------

export const Brand = Schema.Literals(["visa", "mastercard", "amex", "elo", "hipercard", "hiper"])
export type Brand = typeof Brand.Type

/** Numbers whose first `from.length` digits lie in `from`…`to` (both of that length) belong to `brand`. */
export interface PrefixRange {
  readonly brand: Brand
  readonly from: string
  readonly to: string
}

const range = (brand: Brand, from: string, to: string = from): PrefixRange => ({ brand, from, to })

// Elo, Hiper and Hipercard issue inside Visa's and Mastercard's ranges, so the table is searched longest
// prefix first: a six-digit Elo BIN beats Visa's "4".
const eloRanges: ReadonlyArray<readonly [string, string?]> = [
  ["401178"],
  ["401179"],
  ["431274"],
  ["438935"],
  ["451416"],
  ["457393"],
  ["457631"],
  ["457632"],
  ["504175"],
  ["506699", "506778"],
  ["509000", "509999"],
  ["627780"],
  ["636297"],
  ["636368"],
  ["650031", "650033"],
  ["650035", "650051"],
  ["650405", "650439"],
  ["650485", "650538"],
  ["650541", "650598"],
  ["650700", "650718"],
  ["650720", "650727"],
  ["650901", "650978"],
  ["651652", "651679"],
  ["655000", "655019"],
  ["655021", "655058"]
]

export const prefixRanges: ReadonlyArray<PrefixRange> = [
  ...eloRanges.map(([from, to]) => range("elo", from, to)),
  range("hipercard", "606282"),
  range("hipercard", "384100"),
  range("hipercard", "384140"),
  range("hipercard", "384160"),
  range("hiper", "637095"),
  range("hiper", "637568"),
  range("hiper", "637599"),
  range("hiper", "637609"),
  range("hiper", "637612"),
  range("amex", "34"),
  range("amex", "37"),
  range("mastercard", "51", "55"),
  range("mastercard", "2221", "2720"),
  range("visa", "4")
]

const mostSpecificFirst = [...prefixRanges].sort((a, b) => b.from.length - a.from.length)

/**
 * The brand of a number of digits by its prefix alone (lengths are the acquirer's business); the longest
 * matching prefix wins. Undefined for brands Fatura does not take and for anything but digits.
 */
export const detectBrand = (number: string): Brand | undefined => {
  if (!/^\d+$/.test(number)) return undefined
  const match = mostSpecificFirst.find(({ from, to }) => {
    const prefix = number.slice(0, from.length)
    // Equal-length strings of digits compare as their numbers do.
    return prefix.length === from.length && prefix >= from && prefix <= to
  })
  return match?.brand
}

// --- Expiry and security code ----------------------------------------------------------------------------

export interface Expiry {
  readonly month: number
  readonly year: number
}

/**
 * The expiry as sent (`month` 1–12, with or without a leading zero; `year` 4 digits), refused when already
 * past: a card is good until the end of its month, so the current month still passes. `today` is São Paulo's.
 */
export const parseExpiry = (
  input: { readonly month: string; readonly year: string },
  today: { readonly year: number; readonly month: number }
): Result.Result<Expiry, InvalidCard> => {
  if (!/^\d{1,2}$/.test(input.month)) return invalid("month", "must be a number from 1 to 12")
  const month = Number(input.month)
  if (month < 1 || month > 12) return invalid("month", "must be a number from 1 to 12")
  if (!/^\d{4}$/.test(input.year)) return invalid("year", "must have 4 digits")
  const year = Number(input.year)
  if (year < today.year) return invalid("year", "is in the past")
  if (year === today.year && month < today.month) return invalid("month", "is in the past")
  return Result.succeed({ month, year })
}

/**
 * 3 or 4 digits, whatever the brand, as SPEC 6.3 words it: matching the length to the brand (4 for amex) is
 * left to the acquirer, which checks the code itself anyway.
 */
export const checkSecurityCode = (code: string): Result.Result<string, InvalidCard> =>
  /^\d{3,4}$/.test(code) ? Result.succeed(code) : invalid("security_code", "must be 3 or 4 digits")

// --- 3-D Secure ------------------------------------------------------------------------------------------

export const ThreeDSecureOutcome = Schema.Literals(["authenticated", "attempted", "unauthenticated"])
export type ThreeDSecureOutcome = typeof ThreeDSecureOutcome.Type

export interface ThreeDSecureResult {
  readonly eci?: string | null | undefined
  readonly cavv?: string | null | undefined
}

// Visa's and Mastercard's ECI codes. SPEC writes them with two digits; some 3DS servers drop the leading zero,
// so "5" is read as "05".
const authenticatedEcis: ReadonlySet<string> = new Set(["05", "02"])
const attemptedEcis: ReadonlySet<string> = new Set(["06", "01"])

/**
 * Authenticated: ECI 05 or 02 with a CAVV; attempted: ECI 06 or 01 with a CAVV; anything else, a missing or
 * blank CAVV included, unauthenticated (SPEC 6.3).
 */
export const classifyThreeDSecure = (result: ThreeDSecureResult): ThreeDSecureOutcome => {
  const eci = result.eci?.trim() ?? ""
  const hasCavv = (result.cavv?.trim() ?? "") !== ""
  if (!hasCavv || !/^\d{1,2}$/.test(eci)) return "unauthenticated"
  const code = eci.padStart(2, "0")
  if (authenticatedEcis.has(code)) return "authenticated"
  if (attemptedEcis.has(code)) return "attempted"
  return "unauthenticated"
}

// --- Installments ----------------------------------------------------------------------------------------

export const maximumInstallments = 12
/** The smallest installment, in cents, when an amount is split (R$ 5,00). */
export const minimumInstallment = 500

export class InvalidInstallments extends Schema.TaggedError<InvalidInstallments>()("InvalidInstallments", {
  installments: Schema.Number
}) {
  override get message(): string {
    return `installment must be a whole number from 1 to ${maximumInstallments}, got ${this.installments}`
  }
}

export class InstallmentTooSmall extends Schema.TaggedError<InstallmentTooSmall>()("InstallmentTooSmall", {
  amount: Schema.Number,
  installments: Schema.Number,
  minimum: Schema.Number
}) {
  override get message(): string {
    return `${this.amount} cents in ${this.installments} installments is less than ${this.minimum} cents each`
  }
}

/**
 * `amount` split into `installments` whole-cent parts that add up to it exactly; the first parts carry the
 * cents left over, so parts differ by one cent at most. Throws a RangeError unless `installments` is a
 * positive integer (check it with {@link checkInstallments} first).
 */
export const installmentAmounts = (amount: Cents.Cents, installments: number): ReadonlyArray<Cents.Cents> => {
  if (!Number.isInteger(installments) || installments < 1) {
    throw new RangeError(`installments must be a positive integer, got ${installments}`)
  }
  const base = Math.floor(amount / installments)
  const remainder = amount % installments
  return Array.from({ length: installments }, (_, i) => Cents.make(base + (i < remainder ? 1 : 0)))
}

/**
 * The number of installments, if 1–12 and, when the amount is split (2 or more), the smallest part is at least
 * {@link minimumInstallment}. A single payment is not held to the minimum: SPEC 4.1 lets any method charge from
 * R$ 1,00, and "installment too small" would make no sense to a payer who did not ask for installments.
 */
export const checkInstallments = (
  amount: Cents.Cents,
  installments: number
): Result.Result<number, InstallmentTooSmall | InvalidInstallments> => {
  if (!Number.isInteger(installments) || installments < 1 || installments > maximumInstallments) {
    return Result.fail(new InvalidInstallments({ installments }))
  }
  if (installments > 1 && Math.floor(amount / installments) < minimumInstallment) {
    return Result.fail(new InstallmentTooSmall({ amount, installments, minimum: minimumInstallment }))
  }
  return Result.succeed(installments)
}
