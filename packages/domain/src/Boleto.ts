// A FEBRABAN "boleto de cobrança" (SPEC 6.2): the 44-digit barcode, its 47-digit digitable line, their check
// digits, and the due-date factor of the 2025 cycle.
import { Result, Schema } from "effect"
import * as Cents from "./Cents.js"

export class InvalidBoleto extends Schema.TaggedError<InvalidBoleto>()("InvalidBoleto", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

// --- Due-date factor -------------------------------------------------------------------------------------

/** Factor 1000 of the cycle that began when the first one ran out at 9999 (2025-02-21). */
export const factorEpoch = "2025-02-22"
export const minimumFactor = 1000
export const maximumFactor = 9999

const millisecondsPerDay = 86_400_000
const epochDay = Date.UTC(2025, 1, 22) / millisecondsPerDay
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/

// Days since 1970-01-01 of a calendar date, or undefined for text that is not one (2025-02-30 included).
const dayNumber = (date: string): number | undefined => {
  const parts = datePattern.exec(date)
  if (parts === null) return undefined
  const millis = Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]))
  return new Date(millis).toISOString().slice(0, 10) === date ? millis / millisecondsPerDay : undefined
}

/**
 * The factor of a `YYYY-MM-DD` due date: 1000 on 2025-02-22, one more per day, up to 9999 on 2049-10-13.
 * Throws a RangeError for text that is not a date or a date outside that span: due dates are checked at the
 * edge (today … today + 365), so reaching one here is a bug.
 */
export const dueDateFactor = (date: string): number => {
  const day = dayNumber(date)
  if (day === undefined) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`)
  const factor = minimumFactor + day - epochDay
  if (factor < minimumFactor || factor > maximumFactor) {
    throw new RangeError(`due date ${date} is outside the factor cycle ${factorEpoch} … ${dueDateOf(maximumFactor)}`)
  }
  return factor
}

/**
 * The `YYYY-MM-DD` due date of a factor, read in the 2025 cycle (a factor alone cannot tell its cycle).
 * Throws a RangeError outside 1000–9999: 0000 means "no due date", which Fatura never issues.
 */
export const dueDateOf = (factor: number): string => {
  if (!Number.isInteger(factor) || factor < minimumFactor || factor > maximumFactor) {
    throw new RangeError(`due-date factor ${factor} is outside ${minimumFactor}–${maximumFactor}`)
  }
  return new Date((epochDay + factor - minimumFactor) * millisecondsPerDay).toISOString().slice(0, 10)
}

// --- Free field ------------------------------------------------------------------------------------------

// Fatura's layout of the 25 digits the bank leaves free: our number (17 digits), then the beneficiary code
// (8 digits), both zero-padded. Our number comes first so that it can be read back without knowing the code.
const ourNumberLength = 17
const beneficiaryCodeLength = 8
const freeFieldPattern = /^\d{25}$/

export interface FreeFieldInput {
  /** 1–17 digits; read back zero-padded to 17 by {@link ourNumberOf}. */
  readonly ourNumber: string
  /** The beneficiary's (the company's) code at the bank: 1–8 digits. */
  readonly beneficiaryCode: string
}

/** The 25-digit free field. Throws a RangeError when a part is not 1–17 (1–8) digits: both are issued by us. */
export const freeField = (input: FreeFieldInput): string => {
  if (!/^\d{1,17}$/.test(input.ourNumber)) {
    throw new RangeError(`our number must be 1–17 digits, got ${JSON.stringify(input.ourNumber)}`)
  }
  if (!/^\d{1,8}$/.test(input.beneficiaryCode)) {
    throw new RangeError(`beneficiary code must be 1–8 digits, got ${JSON.stringify(input.beneficiaryCode)}`)
  }
  return input.ourNumber.padStart(ourNumberLength, "0") + input.beneficiaryCode.padStart(beneficiaryCodeLength, "0")
}

const checkFreeField = (field: string): void => {
  if (!freeFieldPattern.test(field)) throw new RangeError(`free field must be 25 digits, got ${JSON.stringify(field)}`)
}

/** Our number, as 17 digits, from a free field written by {@link freeField}. Throws unless given 25 digits. */
export const ourNumberOf = (field: string): string => {
  checkFreeField(field)
  return field.slice(0, ourNumberLength)
}

/** The beneficiary code, as 8 digits, from a free field written by {@link freeField}. */
export const beneficiaryCodeOf = (field: string): string => {
  checkFreeField(field)
  return field.slice(ourNumberLength)
}

// --- Check digits ----------------------------------------------------------------------------------------

/**
 * The mod-10 check digit of a digitable-line field: weights 2, 1, 2, … from the rightmost digit, the digits of
 * a product above 9 summed (which is subtracting 9), then what brings the sum to a multiple of 10.
 */
export const mod10CheckDigit = (digits: string): number => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    const product = (digits.charCodeAt(digits.length - 1 - i) - 48) * (i % 2 === 0 ? 2 : 1)
    sum += product > 9 ? product - 9 : product
  }
  return (10 - (sum % 10)) % 10
}

/**
 * The general (mod-11) check digit of a barcode, from its other 43 digits: weights 2–9 from the rightmost
 * digit, starting again at 2, digit = 11 − sum mod 11. That can be 1–11; 10 and 11 become 1 because position 5
 * must hold one digit and FEBRABAN keeps 0 out of it.
 */
export const generalCheckDigit = (digits: string): number => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    sum += (digits.charCodeAt(digits.length - 1 - i) - 48) * ((i % 8) + 2)
  }
  const digit = 11 - (sum % 11)
  return digit >= 10 ? 1 : digit
}

// --- Barcode ---------------------------------------------------------------------------------------------

/** The largest amount the 10 digits of the barcode can hold: R$ 99.999.999,99. */
export const maximumAmount = 9_999_999_999
/** Real, the only currency of a boleto. */
export const currencyCode = "9"

export interface BarcodeInput {
  /** The issuing bank's 3-digit COMPE code. */
  readonly bankCode: string
  readonly amount: Cents.Cents
  /** `YYYY-MM-DD`, within the factor cycle (see {@link dueDateFactor}). */
  readonly dueDate: string
  /** 25 digits, see {@link freeField}. */
  readonly freeField: string
}

// Without the general check digit: the 43 digits it is computed over, in barcode order.
const withoutCheckDigit = (barcode: string): string => barcode.slice(0, 4) + barcode.slice(5)

/**
 * The 44-digit barcode: bank (3), currency `9`, general check digit, factor (4), amount in cents (10), free
 * field (25). Throws a RangeError on a malformed part or an amount over {@link maximumAmount}: all are ours.
 */
export const barcode = (input: BarcodeInput): string => {
  if (!/^\d{3}$/.test(input.bankCode)) throw new RangeError(`bank code must be 3 digits, got ${input.bankCode}`)
  if (input.amount > maximumAmount) throw new RangeError(`amount ${input.amount} does not fit in 10 digits`)
  checkFreeField(input.freeField)
  const head = input.bankCode + currencyCode
  const tail = dueDateFactor(input.dueDate).toString() + input.amount.toString().padStart(10, "0") + input.freeField
  return head + generalCheckDigit(head + tail).toString() + tail
}

/** 44 digits, currency `9`, and a general check digit that adds up. */
export const isValidBarcode = (code: string): boolean =>
  /^\d{44}$/.test(code) && code[3] === currencyCode && generalCheckDigit(withoutCheckDigit(code)).toString() === code[4]

export interface BarcodeFields {
  readonly bankCode: string
  readonly factor: number
  /** The factor's date in the 2025 cycle. */
  readonly dueDate: string
  readonly amount: Cents.Cents
  readonly freeField: string
}

/** The fields of a valid barcode whose factor carries a due date (1000–9999). */
export const parseBarcode = (code: string): Result.Result<BarcodeFields, InvalidBoleto> => {
  if (!/^\d{44}$/.test(code)) return Result.fail(new InvalidBoleto({ reason: "a barcode has 44 digits" }))
  if (code[3] !== currencyCode) return Result.fail(new InvalidBoleto({ reason: "currency code must be 9 (real)" }))
  if (!isValidBarcode(code)) return Result.fail(new InvalidBoleto({ reason: "invalid general check digit" }))
  const factor = Number(code.slice(5, 9))
  if (factor < minimumFactor) return Result.fail(new InvalidBoleto({ reason: `due-date factor ${factor} has no date` }))
  return Result.succeed({
    bankCode: code.slice(0, 3),
    factor,
    dueDate: dueDateOf(factor),
    amount: Cents.make(Number(code.slice(9, 19))),
    freeField: code.slice(19)
  })
}

// --- Digitable line --------------------------------------------------------------------------------------

const withMod10 = (digits: string): string => digits + mod10CheckDigit(digits).toString()

/**
 * The 47-digit line a payer types: field 1 = bank, currency, free field 1–5 and a mod-10 digit; field 2 = free
 * field 6–15 + digit; field 3 = free field 16–25 + digit; field 4 = the general check digit; field 5 = factor
 * and amount. Throws a RangeError on a barcode that {@link isValidBarcode} rejects.
 */
export const digitableLine = (code: string): string => {
  if (!isValidBarcode(code)) throw new RangeError(`invalid barcode ${JSON.stringify(code)}`)
  const free = code.slice(19)
  return (
    withMod10(code.slice(0, 4) + free.slice(0, 5)) +
    withMod10(free.slice(5, 15)) +
    withMod10(free.slice(15, 25)) +
    code[4] +
    code.slice(5, 19)
  )
}

// The three fields of the line that carry a mod-10 digit, as [start, end of body) with the digit at `end`.
const checkedFields: ReadonlyArray<readonly [number, number]> = [
  [0, 9],
  [10, 20],
  [21, 31]
]

// The barcode a 47-digit line stands for, its check digits not looked at.
const barcodeOfLine = (line: string): string =>
  line.slice(0, 4) + line[32] + line.slice(33, 47) + line.slice(4, 9) + line.slice(10, 20) + line.slice(21, 31)

/** 47 digits, three field digits by mod 10, and a general digit that agrees with the barcode it stands for. */
export const isValidDigitableLine = (line: string): boolean =>
  /^\d{47}$/.test(line) &&
  checkedFields.every(([start, end]) => mod10CheckDigit(line.slice(start, end)).toString() === line[end]) &&
  isValidBarcode(barcodeOfLine(line))

/**
 * The barcode of a digitable line as a person types it: spaces and dots are ignored. Fails unless the line has
 * 47 digits and every check digit adds up.
 */
export const barcodeOf = (input: string): Result.Result<string, InvalidBoleto> => {
  const line = input.replace(/[\s.]/g, "")
  if (!/^\d{47}$/.test(line)) return Result.fail(new InvalidBoleto({ reason: "a digitable line has 47 digits" }))
  if (!isValidDigitableLine(line)) return Result.fail(new InvalidBoleto({ reason: "invalid check digits" }))
  return Result.succeed(barcodeOfLine(line))
}

/** The fields of a digitable line, typed as {@link barcodeOf} accepts it. */
export const parseDigitableLine = (input: string): Result.Result<BarcodeFields, InvalidBoleto> =>
  Result.flatMap(barcodeOf(input), parseBarcode)

/** `00190.00009 01234.567891 23456.789012 3 10000000012345`: the grouping printed on a boleto. */
export const formatDigitableLine = (line: string): string => {
  if (!/^\d{47}$/.test(line)) throw new RangeError(`a digitable line has 47 digits, got ${JSON.stringify(line)}`)
  return [
    `${line.slice(0, 5)}.${line.slice(5, 10)}`,
    `${line.slice(10, 15)}.${line.slice(15, 21)}`,
    `${line.slice(21, 26)}.${line.slice(26, 32)}`,
    line[32],
    line.slice(33)
  ].join(" ")
}
