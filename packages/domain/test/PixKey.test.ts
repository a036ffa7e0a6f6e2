import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { hasError, parsePix } from "pix-utils"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { Cents, Document, PixBrCode, PixKey } from "../src/index.js"

const parsed = (input: string) => {
  const result = PixKey.parse(input)
  if (Result.isFailure(result)) throw new Error(`${JSON.stringify(input)} is refused: ${result.failure.reason}`)
  return result.success
}

const reason = (input: string) => {
  const result = PixKey.parse(input)
  if (Result.isSuccess(result)) throw new Error(`${JSON.stringify(input)} is accepted as ${result.success.key}`)
  return result.failure.reason
}

/** What a bank app reads as the key of a BR Code made with `key`. */
const keyInBrCode = (key: PixKey.PixKey) => {
  const pix = parsePix(
    PixBrCode.build({ pixKey: key, merchantName: "Loja", merchantCity: "Recife", amount: Cents.make(100), txid: "T1" })
  )
  if (hasError(pix)) throw new Error(`pix-utils rejects the BR Code of ${key}: ${JSON.stringify(pix)}`)
  if (pix.type !== "STATIC") throw new Error(`pix-utils reads a ${pix.type} pix`)
  return pix.pixKey
}

const digits = (length: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: length, maxLength: length })

/** A CPF (9-digit body) or CNPJ (12-digit body) with the check digits Document accepts. */
const documentNumber = (bodyLength: 9 | 12) =>
  digits(bodyLength)
    .map((body) =>
      Array.from({ length: 100 }, (_, n) => `${body}${String(n).padStart(2, "0")}`).find((number) =>
        Result.isSuccess(Document.parse(number))
      )
    )
    .filter((number): number is string => number !== undefined)

const local = fc.string({
  unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789._+-"),
  minLength: 1,
  maxLength: 40
})
const label = fc.string({
  unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-"),
  minLength: 1,
  maxLength: 20
})

/** Every type of key, each as a person may type it, with the canonical form it must become. */
const typedKey = fc.oneof(
  documentNumber(9).map((number) => ({ typed: Document.formatCpf(number), type: "cpf", key: number })),
  documentNumber(12).map((number) => ({ typed: Document.formatCnpj(number), type: "cnpj", key: number })),
  fc
    .tuple(local, fc.array(label, { minLength: 2, maxLength: 3 }))
    .map(([name, labels]) => `${name}@${labels.join(".")}`)
    .filter((email) => email.length <= 77)
    .map((email) => ({ typed: ` ${email.toUpperCase()} `, type: "email", key: email })),
  fc.tuple(digits(2), fc.oneof(digits(8), digits(9))).map(([area, number]) => ({
    typed: `+55 (${area}) ${number.slice(0, -4)}-${number.slice(-4)}`,
    type: "phone",
    key: `+55${area}${number}`
  })),
  fc.uuid().map((uuid) => ({ typed: uuid.toUpperCase(), type: "evp", key: uuid }))
)

describe("PixKey", () => {
  it.each([
    { typed: "529.982.247-25", type: "cpf", key: "52998224725" },
    { typed: "52998224725", type: "cpf", key: "52998224725" },
    { typed: "11.222.333/0001-81", type: "cnpj", key: "11222333000181" },
    { typed: "12.abc.345/01de-35", type: "cnpj", key: "12ABC34501DE35" },
    { typed: " Pix@Loja.Example ", type: "email", key: "pix@loja.example" },
    { typed: "+55 (11) 98888-7777", type: "phone", key: "+5511988887777" },
    { typed: "+551133334444", type: "phone", key: "+551133334444" },
    { typed: "123E4567-E89B-42D3-A456-426614174000", type: "evp", key: "123e4567-e89b-42d3-a456-426614174000" }
  ])("reads $typed as a $type key, $key", ({ typed, type, key }) => {
    expect(parsed(typed)).toEqual({ type, key })
  })

  it("takes an email of 77 characters, the most DICT and field 26 allow, and not one of 78", () => {
    const domain = "@loja.exam.br"
    expect(parsed(`${"a".repeat(77 - domain.length)}${domain}`).type).toBe("email")
    expect(reason(`${"a".repeat(78 - domain.length)}${domain}`)).toBe(
      "an email pix key has at most 77 characters, this one has 78"
    )
  })

  it.each([
    { typed: "joão@loja.example", why: /ASCII/ },
    { typed: "pix loja@loja.example", why: /ASCII/ },
    { typed: "pix@", why: /valid email/ },
    { typed: "pix@loja", why: /valid email/ },
    { typed: "@loja.example", why: /valid email/ },
    { typed: "pix@@loja.example", why: /valid email/ },
    { typed: "+1 415 555 0100", why: /\+55/ },
    { typed: "+55 11 8888-777", why: /10 or 11 digits/ },
    { typed: "+55 11 98888-77770", why: /10 or 11 digits/ },
    { typed: "+55 11 9888a-7777", why: /10 or 11 digits/ },
    { typed: "529.982.247-24", why: /check digits/ },
    { typed: "111.111.111-11", why: /repeat/ },
    { typed: "11.222.333/0001-80", why: /check digits/ },
    { typed: "123e4567e89b42d3a456426614174000", why: /must be a CPF, a CNPJ/ },
    { typed: "", why: /must be a CPF, a CNPJ/ },
    { typed: "minha chave", why: /must be a CPF, a CNPJ/ },
    { typed: "k".repeat(200), why: /must be a CPF, a CNPJ/ }
  ])("refuses $typed", ({ typed, why }) => {
    expect(reason(typed)).toMatch(why)
  })

  it("reads every key as typed in its canonical form, which reads back as itself and goes whole into a BR Code", () => {
    fc.assert(
      fc.property(typedKey, ({ typed, type, key }) => {
        expect(parsed(typed)).toEqual({ type, key })
        expect(parsed(key)).toEqual({ type, key })
        expect(keyInBrCode(key as PixKey.PixKey)).toBe(key)
      }),
      { numRuns: propertyRuns(500) }
    )
  })

  it("gives, for any text at all, a refusal or a key that a BR Code carries whole", () => {
    const anyText = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 120 }),
      fc.string({ unit: "binary", maxLength: 120 }),
      fc.emailAddress(),
      fc.uuid(),
      typedKey.map(({ typed }) => typed)
    )
    fc.assert(
      fc.property(anyText, (text) => {
        const result = PixKey.parse(text)
        if (Result.isFailure(result)) return
        const { key } = result.success
        expect(key).toMatch(/^[\x21-\x7e]{1,77}$/)
        expect(keyInBrCode(key)).toBe(key)
      }),
      { numRuns: propertyRuns(2_000) }
    )
    // Two thousand texts take a few seconds on a busy machine: the time is the load's, not a target.
  }, 30_000)
})
