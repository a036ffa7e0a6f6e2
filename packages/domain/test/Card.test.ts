import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { Card, Cents } from "../src/index.js"

// An independent Luhn: the check digit that completes `body`, from an explicit doubling table.
const doubled = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9]
const withLuhnDigit = (body: string) => {
  const sum = [...body].reverse().reduce((total, d, i) => total + (i % 2 === 0 ? doubled[Number(d)]! : Number(d)), 0)
  return body + ((10 - (sum % 10)) % 10).toString()
}
// A 16-digit number with a valid Luhn digit that starts with `prefix`.
const cardNumber = (prefix: string) => withLuhnDigit(prefix.padEnd(15, "0"))

const failure = <A, E>(result: Result.Result<A, E>): E =>
  Result.match(result, {
    onSuccess: (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`)
    },
    onFailure: (error) => error
  })

const digit = fc.constantFrom(..."0123456789")

describe("Card", () => {
  describe("luhn", () => {
    it("passes every test card of SPEC 6.3, all of them visa", () => {
      for (const number of [
        "4000000000000002",
        "4000000000009995",
        "4000000000000069",
        "4000000000000119",
        "4000002760003184",
        "4111111111111111"
      ]) {
        expect(Card.luhn(number), number).toBe(true)
        expect(Card.detectBrand(number), number).toBe("visa")
        expect(Card.parseNumber(number)).toEqual(Result.succeed(number))
      }
    })

    it("fails a wrong check digit and anything but digits", () => {
      expect(Card.luhn("4111111111111112")).toBe(false)
      expect(Card.luhn("4111 1111 1111 1111")).toBe(false)
      expect(Card.luhn("")).toBe(false)
      expect(Card.luhn("abc")).toBe(false)
    })

    it("holds for generated numbers and fails after any one-digit change", () => {
      fc.assert(
        fc.property(
          fc.string({ unit: digit, minLength: 11, maxLength: 18 }).map(withLuhnDigit),
          fc.nat(),
          fc.integer({ min: 1, max: 9 }),
          (number, at, shift) => {
            expect(Card.luhn(number)).toBe(true)
            const position = at % number.length
            const changed =
              number.slice(0, position) +
              ((Number(number[position]) + shift) % 10).toString() +
              number.slice(position + 1)
            expect(Card.luhn(changed)).toBe(false)
          }
        )
      )
    })
  })

  describe("parseNumber", () => {
    it("normalizes, then checks length and Luhn", () => {
      expect(Card.normalizeNumber(" 4111 1111-1111 1111 ")).toBe("4111111111111111")
      expect(Card.parseNumber("4111 1111 1111 1111")).toEqual(Result.succeed("4111111111111111"))
      expect(failure(Card.parseNumber("4111 1111 1111 1112"))).toMatchObject({
        field: "number",
        reason: "fails the Luhn check"
      })
      expect(failure(Card.parseNumber("42"))).toMatchObject({ field: "number", reason: "must be 12 to 19 digits" })
      expect(failure(Card.parseNumber("4111.1111.1111.1111"))).toMatchObject({ field: "number" })
      expect(failure(Card.parseNumber("4".repeat(20))).message).toBe("card number: must be 12 to 19 digits")
    })
  })

  describe("mask", () => {
    it("keeps the first 6 and the last 4 digits only", () => {
      expect(Card.mask("4000002760003184")).toEqual({ firstDigits: "400000", lastDigits: "3184" })
      expect(Card.mask("378282246310005")).toEqual({ firstDigits: "378282", lastDigits: "0005" })
    })
  })

  describe("detectBrand", () => {
    it("knows each brand", () => {
      expect(Card.detectBrand("4242424242424242")).toBe("visa")
      expect(Card.detectBrand("5555555555554444")).toBe("mastercard")
      expect(Card.detectBrand("5105105105105100")).toBe("mastercard")
      expect(Card.detectBrand("2223003122003222")).toBe("mastercard")
      expect(Card.detectBrand("378282246310005")).toBe("amex")
      expect(Card.detectBrand("371449635398431")).toBe("amex")
      expect(Card.detectBrand("6362970000457013")).toBe("elo")
      expect(Card.detectBrand("6062825624254001")).toBe("hipercard")
      expect(Card.detectBrand("6370950000000005")).toBe("hiper")
    })

    it("gives Elo its BINs inside Visa's range", () => {
      for (const prefix of ["401178", "401179", "431274", "438935", "451416", "457393", "457631", "457632"]) {
        expect(Card.detectBrand(cardNumber(prefix)), prefix).toBe("elo")
      }
      expect(Card.detectBrand(cardNumber("401177"))).toBe("visa")
      expect(Card.detectBrand(cardNumber("457630"))).toBe("visa")
    })

    it("gives Elo the BINs starting with 5 and 6, range ends included", () => {
      for (const prefix of ["504175", "506699", "506778", "509000", "509999", "627780", "636368", "650031", "650033"]) {
        expect(Card.detectBrand(cardNumber(prefix)), prefix).toBe("elo")
      }
      for (const prefix of ["650405", "650439", "650485", "650538", "650541", "650598", "650700", "650718"]) {
        expect(Card.detectBrand(cardNumber(prefix)), prefix).toBe("elo")
      }
      for (const prefix of ["650720", "650727", "650901", "650978", "651652", "651679", "655000", "655058"]) {
        expect(Card.detectBrand(cardNumber(prefix)), prefix).toBe("elo")
      }
      // The gaps between Elo's ranges belong to no brand Fatura takes.
      for (const prefix of ["506698", "506779", "650034", "650719", "655020", "655059"]) {
        expect(Card.detectBrand(cardNumber(prefix)), prefix).toBeUndefined()
      }
    })

    it("knows Hipercard and Hiper, and that 3841 alone is not amex", () => {
      for (const prefix of ["606282", "384100", "384140", "384160"]) {
        expect(Card.detectBrand(cardNumber(prefix)), prefix).toBe("hipercard")
      }
      for (const prefix of ["637095", "637568", "637599", "637609", "637612"]) {
        expect(Card.detectBrand(cardNumber(prefix)), prefix).toBe("hiper")
      }
      expect(Card.detectBrand(cardNumber("384120"))).toBeUndefined()
    })

    it("draws Mastercard's lines at 51–55 and 2221–2720", () => {
      expect(Card.detectBrand(cardNumber("50"))).toBeUndefined()
      expect(Card.detectBrand(cardNumber("51"))).toBe("mastercard")
      expect(Card.detectBrand(cardNumber("55"))).toBe("mastercard")
      expect(Card.detectBrand(cardNumber("56"))).toBeUndefined()
      expect(Card.detectBrand(cardNumber("2220"))).toBeUndefined()
      expect(Card.detectBrand(cardNumber("2221"))).toBe("mastercard")
      expect(Card.detectBrand(cardNumber("2720"))).toBe("mastercard")
      expect(Card.detectBrand(cardNumber("2721"))).toBeUndefined()
    })

    it("knows nothing of other brands or of non-digits", () => {
      expect(Card.detectBrand("6011111111111117")).toBeUndefined()
      expect(Card.detectBrand("3530111333300000")).toBeUndefined()
      expect(Card.detectBrand("")).toBeUndefined()
      expect(Card.detectBrand("4111 1111 1111 1111")).toBeUndefined()
      expect(Card.detectBrand("40117")).toBe("visa")
    })

    it("has no two brands claiming the same prefix at the same length", () => {
      for (const a of Card.prefixRanges) {
        expect(a.to.length).toBe(a.from.length)
        expect(a.from <= a.to).toBe(true)
        for (const b of Card.prefixRanges) {
          if (a === b || a.brand === b.brand || a.from.length !== b.from.length) continue
          expect(a.to < b.from || b.to < a.from, `${a.brand} ${a.from} and ${b.brand} ${b.from}`).toBe(true)
        }
      }
    })
  })

  describe("parseExpiry", () => {
    const today = { year: 2026, month: 5 }

    it("accepts the current month and later, with or without a leading zero", () => {
      expect(Card.parseExpiry({ month: "05", year: "2026" }, today)).toEqual(Result.succeed({ month: 5, year: 2026 }))
      expect(Card.parseExpiry({ month: "5", year: "2026" }, today)).toEqual(Result.succeed({ month: 5, year: 2026 }))
      expect(Card.parseExpiry({ month: "1", year: "2027" }, today)).toEqual(Result.succeed({ month: 1, year: 2027 }))
      expect(Card.parseExpiry({ month: "12", year: "2040" }, today)).toEqual(Result.succeed({ month: 12, year: 2040 }))
    })

    it("refuses the past", () => {
      expect(failure(Card.parseExpiry({ month: "4", year: "2026" }, today))).toMatchObject({ field: "month" })
      expect(failure(Card.parseExpiry({ month: "12", year: "2025" }, today))).toMatchObject({ field: "year" })
    })

    it("refuses months outside 1–12 and years not of 4 digits", () => {
      for (const month of ["0", "00", "13", "", "1a", "123", "-1", " 5"]) {
        expect(failure(Card.parseExpiry({ month, year: "2030" }, today)), month).toMatchObject({ field: "month" })
      }
      for (const year of ["30", "02030", "", "20x0"]) {
        expect(failure(Card.parseExpiry({ month: "6", year }, today)), year).toMatchObject({ field: "year" })
      }
    })
  })

  describe("checkSecurityCode", () => {
    it("takes 3 or 4 digits whatever the brand", () => {
      expect(Card.checkSecurityCode("123")).toEqual(Result.succeed("123"))
      expect(Card.checkSecurityCode("1234")).toEqual(Result.succeed("1234"))
      for (const code of ["12", "12345", "12a", "", " 123"]) {
        expect(failure(Card.checkSecurityCode(code)), code).toMatchObject({ field: "security_code" })
      }
    })
  })

  describe("classifyThreeDSecure", () => {
    it("reads ECI and CAVV as SPEC 6.3 does", () => {
      const cavv = "AAABBEg0VhI0VniQEjRWAAAAAAA="
      expect(Card.classifyThreeDSecure({ eci: "05", cavv })).toBe("authenticated")
      expect(Card.classifyThreeDSecure({ eci: "02", cavv })).toBe("authenticated")
      expect(Card.classifyThreeDSecure({ eci: "06", cavv })).toBe("attempted")
      expect(Card.classifyThreeDSecure({ eci: "01", cavv })).toBe("attempted")
      expect(Card.classifyThreeDSecure({ eci: "07", cavv })).toBe("unauthenticated")
      expect(Card.classifyThreeDSecure({ eci: "00", cavv })).toBe("unauthenticated")
      expect(Card.classifyThreeDSecure({ eci: "05" })).toBe("unauthenticated")
      expect(Card.classifyThreeDSecure({ eci: "05", cavv: " " })).toBe("unauthenticated")
      expect(Card.classifyThreeDSecure({ eci: "05", cavv: null })).toBe("unauthenticated")
      expect(Card.classifyThreeDSecure({ cavv })).toBe("unauthenticated")
      expect(Card.classifyThreeDSecure({})).toBe("unauthenticated")
    })

    it("reads a one-digit ECI as the two-digit one, and nothing else as an ECI", () => {
      const cavv = "AAABBEg0VhI0VniQEjRWAAAAAAA="
      expect(Card.classifyThreeDSecure({ eci: "5", cavv })).toBe("authenticated")
      expect(Card.classifyThreeDSecure({ eci: "2", cavv })).toBe("authenticated")
      expect(Card.classifyThreeDSecure({ eci: "6", cavv })).toBe("attempted")
      expect(Card.classifyThreeDSecure({ eci: "1", cavv })).toBe("attempted")
      expect(Card.classifyThreeDSecure({ eci: "005", cavv })).toBe("unauthenticated")
      expect(Card.classifyThreeDSecure({ eci: "5a", cavv })).toBe("unauthenticated")
      expect(Card.classifyThreeDSecure({ eci: "", cavv })).toBe("unauthenticated")
    })
  })

  describe("installments", () => {
    it("splits an amount with the leftover cents first", () => {
      expect(Card.installmentAmounts(Cents.make(1000), 3)).toEqual([334, 333, 333])
      expect(Card.installmentAmounts(Cents.make(1001), 3)).toEqual([334, 334, 333])
      expect(Card.installmentAmounts(Cents.make(1200), 12)).toEqual(Array(12).fill(100))
      expect(Card.installmentAmounts(Cents.make(0), 2)).toEqual([0, 0])
      expect(() => Card.installmentAmounts(Cents.make(1000), 0)).toThrow(RangeError)
      expect(() => Card.installmentAmounts(Cents.make(1000), 1.5)).toThrow(RangeError)
    })

    it("always adds up to the amount, in parts at most a cent apart", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 100_000_000 }),
          fc.integer({ min: 1, max: 12 }),
          (amount, installments) => {
            const parts = Card.installmentAmounts(Cents.make(amount), installments)
            expect(parts).toHaveLength(installments)
            expect(parts.reduce((sum, part) => sum + part, 0)).toBe(amount)
            expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1)
            expect(parts.every(Number.isInteger)).toBe(true)
          }
        )
      )
    })

    it("allows 1–12 installments of at least R$ 5,00 each", () => {
      expect(Card.minimumInstallment).toBe(500)
      expect(Card.checkInstallments(Cents.make(6000), 12)).toEqual(Result.succeed(12))
      expect(Card.checkInstallments(Cents.make(1000), 2)).toEqual(Result.succeed(2))
      expect(failure(Card.checkInstallments(Cents.make(999), 2))).toMatchObject({
        _tag: "InstallmentTooSmall",
        amount: 999,
        installments: 2,
        minimum: 500
      })
      expect(failure(Card.checkInstallments(Cents.make(5999), 12))._tag).toBe("InstallmentTooSmall")
      for (const installments of [0, 13, -1, 2.5, Number.NaN]) {
        expect(failure(Card.checkInstallments(Cents.make(100_000), installments))._tag).toBe("InvalidInstallments")
      }
    })

    it("does not hold a single payment to the minimum", () => {
      expect(Card.checkInstallments(Cents.make(100), 1)).toEqual(Result.succeed(1))
    })

    it("accepts a count exactly when every part reaches the minimum", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 100, max: 100_000_000 }),
          fc.integer({ min: 2, max: 12 }),
          (amount, installments) => {
            const parts = Card.installmentAmounts(Cents.make(amount), installments)
            expect(Result.isSuccess(Card.checkInstallments(Cents.make(amount), installments))).toBe(
              parts.every((part) => part >= Card.minimumInstallment)
            )
          }
        )
      )
    })
  })
})
