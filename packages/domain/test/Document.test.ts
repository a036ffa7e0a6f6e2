import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { Document } from "../src/index.js"

// An independent reference, written from the published rules with explicit weight tables.
const value = (character: string) => character.charCodeAt(0) - 48
const digitFor = (body: string, weights: ReadonlyArray<number>) => {
  const remainder = weights.reduce((sum, weight, i) => sum + value(body[i]!) * weight, 0) % 11
  return remainder < 2 ? "0" : String(11 - remainder)
}
const cpfWeights = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
const cnpjWeights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
const withCpfDigits = (body: string) => {
  const first = digitFor(body, cpfWeights.slice(1))
  return body + first + digitFor(body + first, cpfWeights)
}
const withCnpjDigits = (body: string) => {
  const first = digitFor(body, cnpjWeights.slice(1))
  return body + first + digitFor(body + first, cnpjWeights)
}
const isValidByReference = (number: string) =>
  /^(\d)\1*$/.test(number)
    ? false
    : /^\d{11}$/.test(number)
      ? withCpfDigits(number.slice(0, 9)) === number
      : /^[0-9A-Z]{12}\d{2}$/.test(number) && withCnpjDigits(number.slice(0, 12)) === number

const parsed = (input: string) => Result.getOrThrow(Document.parse(input))
const reasonOf = (input: string) =>
  Result.match(Document.parse(input), { onSuccess: () => "valid", onFailure: (error) => error.reason })

const digit = fc.constantFrom(..."0123456789")
const alphanumeric = fc.constantFrom(..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
const notOneRepeatedCharacter = (body: string) => !/^(.)\1*$/.test(body)
const cpfBody = fc.string({ unit: digit, minLength: 9, maxLength: 9 }).filter(notOneRepeatedCharacter)
const numericCnpjBody = fc.string({ unit: digit, minLength: 12, maxLength: 12 }).filter(notOneRepeatedCharacter)
const alphanumericCnpjBody = fc.string({ unit: alphanumeric, minLength: 12, maxLength: 12 })
const validCpf = cpfBody.map(withCpfDigits)
const validCnpj = fc.oneof(numericCnpjBody, alphanumericCnpjBody).map(withCnpjDigits)

describe("Document", () => {
  describe("CPF", () => {
    it("accepts published valid numbers, formatted or not", () => {
      expect(parsed("529.982.247-25")).toEqual({ type: "cpf", number: "52998224725" })
      expect(parsed("52998224725")).toEqual({ type: "cpf", number: "52998224725" })
      expect(parsed(" 123.456.789-09 ")).toEqual({ type: "cpf", number: "12345678909" })
    })

    it("rejects a wrong first or second check digit", () => {
      expect(reasonOf("529.982.247-35")).toBe("invalid check digits")
      expect(reasonOf("529.982.247-24")).toBe("invalid check digits")
    })

    it("rejects a single repeated digit, though its check digits add up", () => {
      expect(withCpfDigits("111111111")).toBe("11111111111")
      expect(reasonOf("111.111.111-11")).toBe("must not repeat a single digit")
      expect(reasonOf("00000000000")).toBe("must not repeat a single digit")
    })

    it("formats as 000.000.000-00", () => {
      expect(Document.formatCpf("52998224725")).toBe("529.982.247-25")
    })
  })

  describe("CNPJ", () => {
    it("accepts published valid numeric numbers", () => {
      expect(parsed("11.222.333/0001-81")).toEqual({ type: "cnpj", number: "11222333000181" })
      expect(parsed("11222333000181")).toEqual({ type: "cnpj", number: "11222333000181" })
    })

    it("accepts Receita Federal's alphanumeric example, in either case", () => {
      expect(parsed("12.ABC.345/01DE-35")).toEqual({ type: "cnpj", number: "12ABC34501DE35" })
      expect(parsed("12.abc.345/01de-35")).toEqual({ type: "cnpj", number: "12ABC34501DE35" })
    })

    it("rejects wrong check digits", () => {
      expect(reasonOf("11.222.333/0001-82")).toBe("invalid check digits")
      expect(reasonOf("11.222.333/0001-91")).toBe("invalid check digits")
      expect(reasonOf("12.ABC.345/01DE-36")).toBe("invalid check digits")
      expect(reasonOf("12.ABD.345/01DE-35")).toBe("invalid check digits")
    })

    it("rejects a single repeated digit", () => {
      expect(reasonOf("00.000.000/0000-00")).toBe("must not repeat a single digit")
      expect(reasonOf("11111111111111")).toBe("must not repeat a single digit")
    })

    it("formats as 00.000.000/0000-00, letters included", () => {
      expect(Document.formatCnpj("11222333000181")).toBe("11.222.333/0001-81")
      expect(Document.formatCnpj("12ABC34501DE35")).toBe("12.ABC.345/01DE-35")
      expect(Document.format(parsed("12abc34501de35"))).toBe("12.ABC.345/01DE-35")
      expect(Document.format(parsed("52998224725"))).toBe("529.982.247-25")
    })
  })

  it("rejects what is neither 11 digits nor 14 characters", () => {
    const shape = "must be a CPF (11 digits) or a CNPJ (14 characters)"
    for (const input of [
      "",
      "123",
      "5299822472",
      "529982247250",
      "1122233300018",
      "112223330001810",
      "5299822472A",
      "12.ABC.345/01DE-3A",
      "529_982_247_25",
      "529,982,247-25",
      "12ÁBC34501DE35"
    ]) {
      expect(reasonOf(input), input).toBe(shape)
    }
  })

  it("fails with an InvalidDocument whose message is its reason", () => {
    const result = Document.parse("529.982.247-24")
    expect(Result.isFailure(result)).toBe(true)
    if (Result.isFailure(result)) {
      expect(result.failure).toBeInstanceOf(Document.InvalidDocument)
      expect(result.failure._tag).toBe("InvalidDocument")
      expect(result.failure.message).toBe("invalid check digits")
    }
  })

  it("accepts every body completed with its check digits, formatted or not", () => {
    fc.assert(
      fc.property(validCpf, (number) => {
        expect(parsed(number)).toEqual({ type: "cpf", number })
        expect(parsed(Document.formatCpf(number))).toEqual({ type: "cpf", number })
      })
    )
    fc.assert(
      fc.property(validCnpj, (number) => {
        expect(parsed(number)).toEqual({ type: "cnpj", number })
        expect(parsed(Document.formatCnpj(number).toLowerCase())).toEqual({ type: "cnpj", number })
      })
    )
  })

  it("reads a number it accepted, however it was typed, as it parsed it, without checking it again", () => {
    const typed = (number: string, formatted: string) =>
      fc.constantFrom(number, formatted, formatted.toLowerCase(), ` ${formatted} `)
    fc.assert(
      fc.property(
        validCpf.chain((number) => typed(number, Document.formatCpf(number))),
        validCnpj.chain((number) => typed(number, Document.formatCnpj(number))),
        (cpf, cnpj) => {
          expect(Document.ofAccepted(cpf)).toEqual(parsed(cpf))
          expect(Document.ofAccepted(cnpj)).toEqual(parsed(cnpj))
        }
      )
    )
  })

  it("rejects a valid number with either check digit changed", () => {
    fc.assert(
      fc.property(
        fc.oneof(validCpf, validCnpj),
        fc.constantFrom(1, 2),
        fc.integer({ min: 1, max: 9 }),
        (number, fromEnd, shift) => {
          const at = number.length - fromEnd
          const changed = String((Number(number[at]) + shift) % 10)
          expect(reasonOf(number.slice(0, at) + changed + number.slice(at + 1))).toBe("invalid check digits")
        }
      )
    )
  })

  it("agrees with the reference on any one-character change of a valid number", () => {
    // The check digits do not catch every change of the body (a 6 read as an A, for one), so the property is
    // agreement with the published rule, not rejection.
    fc.assert(
      fc.property(fc.oneof(validCpf, validCnpj), fc.nat(), alphanumeric, (number, position, character) => {
        const at = position % number.length
        const changed = number.slice(0, at) + character + number.slice(at + 1)
        expect(reasonOf(changed) === "valid").toBe(isValidByReference(changed))
      }),
      { numRuns: propertyRuns(2_000) }
    )
  })
})
