// Brazilian tax numbers: CPF for people, CNPJ for companies (numeric, or the alphanumeric form of 2026),
// recognised by length and accepted only with correct check digits.
import { Result, Schema } from "effect"

export const DocumentType = Schema.Literals(["cpf", "cnpj"])
export type DocumentType = typeof DocumentType.Type

/** `number` holds only digits (CPF) or only digits and uppercase letters (CNPJ), without formatting. */
export const Document = Schema.Struct({ type: DocumentType, number: Schema.String })
export type Document = typeof Document.Type

export class InvalidDocument extends Schema.TaggedError<InvalidDocument>()("InvalidDocument", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

const cpfPattern = /^\d{11}$/
// Receita Federal lets the 12 body characters be letters from July 2026 on; the check digits stay digits.
const cnpjPattern = /^[0-9A-Z]{12}\d{2}$/
const repeatedCharacter = /^(.)\1*$/

/**
 * The mod-11 check digit of `body`, weights 2, 3, … from the rightmost character, starting again at 2 after
 * `maxWeight`. A character counts as its char code minus 48, which is its value for a digit and what the
 * alphanumeric CNPJ prescribes for a letter (A = 17).
 */
const checkDigit = (body: string, maxWeight: number): number => {
  let sum = 0
  for (let i = 0; i < body.length; i++) {
    const weight = ((body.length - 1 - i) % (maxWeight - 1)) + 2
    sum += (body.charCodeAt(i) - 48) * weight
  }
  const remainder = sum % 11
  return remainder < 2 ? 0 : 11 - remainder
}

// The CPF's weights never wrap (they reach 11 at most); the CNPJ's cycle through 2..9.
const hasValidCheckDigits = (number: string, maxWeight: number): boolean => {
  const first = checkDigit(number.slice(0, -2), maxWeight)
  const second = checkDigit(number.slice(0, -1), maxWeight)
  return number.endsWith(`${first}${second}`)
}

const invalid = (reason: string) => Result.fail(new InvalidDocument({ reason }))

/** A number as typed by a person, without its formatting: `.`, `-`, `/` and spaces go, letters become uppercase. */
const unformatted = (input: string) => input.replace(/[.\-/\s]/g, "").toUpperCase()

/** Reads a CPF or CNPJ as typed by a person: `.`, `-`, `/` and spaces are ignored, letters may be lowercase. */
export const parse = (input: string): Result.Result<Document, InvalidDocument> => {
  const number = unformatted(input)
  const type = cpfPattern.test(number) ? "cpf" : cnpjPattern.test(number) ? "cnpj" : undefined
  if (type === undefined) return invalid("must be a CPF (11 digits) or a CNPJ (14 characters)")
  // Sequences such as 111.111.111-11 pass the arithmetic but are not real numbers.
  if (repeatedCharacter.test(number)) return invalid("must not repeat a single digit")
  if (!hasValidCheckDigits(number, type === "cpf" ? 11 : 9)) return invalid("invalid check digits")
  return Result.succeed({ type, number })
}

/**
 * The document of a number {@link parse} has already accepted (a request the contract's schema checked), read without
 * checking it again: a CPF has 11 characters, a CNPJ 14.
 */
export const ofAccepted = (input: string): Document => {
  const number = unformatted(input)
  return { type: number.length === 11 ? "cpf" : "cnpj", number }
}

/** `000.000.000-00`, from the 11 digits of a parsed CPF. */
export const formatCpf = (number: string): string =>
  `${number.slice(0, 3)}.${number.slice(3, 6)}.${number.slice(6, 9)}-${number.slice(9, 11)}`

/** `00.000.000/0000-00`, from the 14 characters of a parsed CNPJ, letters included. */
export const formatCnpj = (number: string): string =>
  `${number.slice(0, 2)}.${number.slice(2, 5)}.${number.slice(5, 8)}/${number.slice(8, 12)}-${number.slice(12, 14)}`

export const format = (document: Document): string =>
  document.type === "cpf" ? formatCpf(document.number) : formatCnpj(document.number)
