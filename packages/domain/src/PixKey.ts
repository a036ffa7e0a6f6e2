// Pix keys as the Central Bank's directory (DICT) knows them: CPF, CNPJ, email, phone or random key (EVP),
// recognised by their form and kept in the one canonical form DICT stores, which always fits a BR Code (SPEC 6.1).
import { Result, Schema } from "effect"
import * as Document from "./Document.js"

export const PixKeyType = Schema.Literals(["cpf", "cnpj", "email", "phone", "evp"])
export type PixKeyType = typeof PixKeyType.Type

/** A key in canonical form: printable ASCII, at most {@link maximumLength} characters. Made by {@link parse}. */
export const PixKey = Schema.String.pipe(Schema.brand("PixKey"))
export type PixKey = typeof PixKey.Type

export interface ParsedPixKey {
  readonly type: PixKeyType
  readonly key: PixKey
}

export class InvalidPixKey extends Schema.TaggedError<InvalidPixKey>()("InvalidPixKey", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

/**
 * DICT's limit for an email key, the longest type. It is also exactly what field 26 of a BR Code can hold: 99
 * characters, less 18 for the `00` GUI subfield and 4 for the key's own id and length.
 */
export const maximumLength = 77

// DICT's own patterns: an email key is lowercase; a phone is E.164, and here only Brazil's +55 with a two-digit
// area code and an 8- or 9-digit number; a random key is a lowercase UUID.
const emailPattern = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/
const phonePattern = /^\+55\d{10,11}$/
const evpPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const printableAscii = /^[\x21-\x7e]*$/
const documentShape = /^(\d{11}|[0-9A-Z]{12}\d{2})$/

const valid = (type: PixKeyType, key: string): Result.Result<ParsedPixKey, InvalidPixKey> =>
  Result.succeed({ type, key: key as PixKey })

const invalid = (reason: string) => Result.fail(new InvalidPixKey({ reason }))

const parseEmail = (text: string) => {
  const email = text.toLowerCase()
  if (!printableAscii.test(email)) return invalid("an email pix key must be plain ASCII, without accents or spaces")
  if (email.length > maximumLength) {
    return invalid(`an email pix key has at most ${maximumLength} characters, this one has ${email.length}`)
  }
  return emailPattern.test(email) ? valid("email", email) : invalid("is not a valid email address")
}

/**
 * Reads a key as a person types it: spaces around it, the formatting of a CPF, CNPJ or phone number and the case
 * of an email or random key do not matter. A CPF or CNPJ must have valid check digits.
 */
export const parse = (input: string): Result.Result<ParsedPixKey, InvalidPixKey> => {
  const text = input.trim()
  if (text.includes("@")) return parseEmail(text)
  if (text.startsWith("+")) {
    const phone = text.replace(/[\s()-]/g, "")
    return phonePattern.test(phone)
      ? valid("phone", phone)
      : invalid("a phone pix key is +55 followed by the area code and the number, 10 or 11 digits")
  }
  const lower = text.toLowerCase()
  if (evpPattern.test(lower)) return valid("evp", lower)
  if (documentShape.test(text.replace(/[.\-/\s]/g, "").toUpperCase())) {
    const document = Document.parse(text)
    if (Result.isSuccess(document)) return valid(document.success.type, document.success.number)
    return invalid(`a CPF or CNPJ pix key: ${document.failure.reason}`)
  }
  return invalid(
    "must be a CPF, a CNPJ, an email address, a phone number as +55 with 10 or 11 digits, or a random key (a UUID)"
  )
}
