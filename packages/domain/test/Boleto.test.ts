import { createRequire } from "node:module"
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { Boleto, Cents } from "../src/index.js"

// boleto-brasileiro-validator, an independent library, ships CommonJS without types. For a "bancário" boleto it
// recomputes the mod-11 general digit over the other 43 barcode digits (0, 10 and 11 becoming 1); for a line it
// rebuilds the barcode and checks that digit, and with `true` also the three mod-10 field digits. It knows
// nothing of due dates, so the factor is checked here against our own day count.
const validator = createRequire(import.meta.url)("boleto-brasileiro-validator") as {
  readonly boletoBancarioCodigoBarras: (barcode: string) => boolean
  readonly boletoBancarioLinhaDigitavel: (line: string, checkFieldDigits: boolean) => boolean
}
const libraryAcceptsBarcode = (barcode: string) => validator.boletoBancarioCodigoBarras(barcode)
const libraryAcceptsLine = (line: string) => validator.boletoBancarioLinhaDigitavel(line, true)

// Worked by hand. Bank 001, R$ 123,45, due 2025-02-22 (factor 1000), our number 1, beneficiary code 1:
// free field 00000000000000001 00000001. Mod 11 over the 43 other digits, weights 2..9 from the right:
// the 1 of the bank ×2, currency 9 ×9, factor's 1 ×8, amount 1,2,3,4,5 × 7,6,5,4,3, the two 1s of the free
// field ×2 each: 2 + 81 + 8 + (7 + 12 + 15 + 16 + 15) + 2 + 2 = 160; 160 mod 11 = 6; digit 11 − 6 = 5.
const example = {
  bankCode: "001",
  amount: Cents.make(12_345),
  dueDate: "2025-02-22",
  freeField: Boleto.freeField({ ourNumber: "1", beneficiaryCode: "1" })
}
const exampleBarcode = "00195100000000123450000000000000000100000001"
// Field 1 = 0019 00000: 9 ×1 + 1 ×2 = 11, digit 10 − 1 = 9. Field 2 = ten zeros: 0.
// Field 3 = 0100000001: its last 1 ×2 and its first 1 (ninth from the right) ×2 = 4, digit 6.
const exampleLine = "00190000090000000000001000000016510000000012345"

const digit = fc.constantFrom(..."0123456789")
const digits = (minLength: number, maxLength: number) => fc.string({ unit: digit, minLength, maxLength })
const millisecondsPerDay = 86_400_000
const dateAfterEpoch = (days: number) =>
  new Date(Date.UTC(2025, 1, 22) + days * millisecondsPerDay).toISOString().slice(0, 10)

// Any bank, amount, due date over the next 20 years and our number.
const boletoInput = fc.record({
  bankCode: fc.integer({ min: 0, max: 999 }).map((n) => n.toString().padStart(3, "0")),
  amount: fc.integer({ min: 1, max: 9_999_999_999 }).map(Cents.make),
  days: fc.integer({ min: 0, max: 20 * 365 }),
  ourNumber: digits(1, 17),
  beneficiaryCode: digits(1, 8)
})
const build = (input: typeof boletoInput extends fc.Arbitrary<infer A> ? A : never) => {
  const freeField = Boleto.freeField(input)
  const barcode = Boleto.barcode({
    bankCode: input.bankCode,
    amount: input.amount,
    dueDate: dateAfterEpoch(input.days),
    freeField
  })
  return { freeField, barcode, line: Boleto.digitableLine(barcode) }
}

const replaceAt = (text: string, position: number, character: string) =>
  text.slice(0, position) + character + text.slice(position + 1)
// A position of `text` and a digit other than the one there.
const oneDigitChange = (text: string) =>
  fc
    .record({ position: fc.integer({ min: 0, max: text.length - 1 }), shift: fc.integer({ min: 1, max: 9 }) })
    .map(({ position, shift }) => replaceAt(text, position, ((Number(text[position]) + shift) % 10).toString()))

describe("Boleto", () => {
  describe("dueDateFactor", () => {
    it("is 1000 on 2025-02-22 and one more per day", () => {
      expect(Boleto.dueDateFactor("2025-02-22")).toBe(1000)
      expect(Boleto.dueDateFactor("2025-02-23")).toBe(1001)
      expect(Boleto.dueDateFactor("2025-03-01")).toBe(1007)
      // 2025-02-22 → 2026-02-22 is 365 days; → 2026-11-22 another 28+31+30+31+30+31+31+30+31 = 273.
      expect(Boleto.dueDateFactor("2026-11-22")).toBe(1000 + 365 + 273)
      // 2028 is a leap year: 2028-02-22 → 2028-03-01 is 8 days.
      expect(Boleto.dueDateFactor("2028-03-01") - Boleto.dueDateFactor("2028-02-22")).toBe(8)
    })

    it("reaches 9999 on 2049-10-13, the day before the next wrap", () => {
      expect(Boleto.dueDateFactor("2049-10-13")).toBe(9999)
      expect(Boleto.dueDateOf(9999)).toBe("2049-10-13")
    })

    it("throws outside the cycle and for text that is not a date", () => {
      expect(() => Boleto.dueDateFactor("2025-02-21")).toThrow(RangeError)
      expect(() => Boleto.dueDateFactor("2049-10-14")).toThrow(RangeError)
      expect(() => Boleto.dueDateFactor("2025-02-30")).toThrow(RangeError)
      expect(() => Boleto.dueDateFactor("22/02/2025")).toThrow(RangeError)
      expect(() => Boleto.dueDateFactor("2025-2-22")).toThrow(RangeError)
    })

    it("counts days like the calendar, and dueDateOf undoes it", () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 8999 }), (days) => {
          const date = dateAfterEpoch(days)
          expect(Boleto.dueDateFactor(date)).toBe(1000 + days)
          expect(Boleto.dueDateOf(1000 + days)).toBe(date)
        })
      )
    })

    it("dueDateOf refuses factors without a date in the cycle", () => {
      expect(() => Boleto.dueDateOf(0)).toThrow(RangeError)
      expect(() => Boleto.dueDateOf(999)).toThrow(RangeError)
      expect(() => Boleto.dueDateOf(10_000)).toThrow(RangeError)
      expect(() => Boleto.dueDateOf(1000.5)).toThrow(RangeError)
    })
  })

  describe("freeField", () => {
    it("is our number over 17 digits then the beneficiary code over 8", () => {
      expect(Boleto.freeField({ ourNumber: "123", beneficiaryCode: "4567" })).toBe("0000000000000012300004567")
      expect(Boleto.ourNumberOf("0000000000000012300004567")).toBe("00000000000000123")
      expect(Boleto.beneficiaryCodeOf("0000000000000012300004567")).toBe("00004567")
    })

    it("gives back our number, zero-padded to 17 digits", () => {
      fc.assert(
        fc.property(digits(1, 17), digits(1, 8), (ourNumber, beneficiaryCode) => {
          const field = Boleto.freeField({ ourNumber, beneficiaryCode })
          expect(field).toMatch(/^\d{25}$/)
          expect(Boleto.ourNumberOf(field)).toBe(ourNumber.padStart(17, "0"))
          expect(Boleto.beneficiaryCodeOf(field)).toBe(beneficiaryCode.padStart(8, "0"))
        })
      )
    })

    it("refuses parts that do not fit", () => {
      expect(() => Boleto.freeField({ ourNumber: "", beneficiaryCode: "1" })).toThrow(RangeError)
      expect(() => Boleto.freeField({ ourNumber: "1".repeat(18), beneficiaryCode: "1" })).toThrow(RangeError)
      expect(() => Boleto.freeField({ ourNumber: "12a", beneficiaryCode: "1" })).toThrow(RangeError)
      expect(() => Boleto.freeField({ ourNumber: "1", beneficiaryCode: "123456789" })).toThrow(RangeError)
      expect(() => Boleto.ourNumberOf("123")).toThrow(RangeError)
    })
  })

  describe("check digits", () => {
    it("mod 10 sums the digits of doubled products", () => {
      expect(Boleto.mod10CheckDigit("001900000")).toBe(9)
      // 9×2=18→9, 8, 7×2=14→5, 6, 5×2=10→1, 4, 3×2=6, 2, 1×2=2, 0: 43, digit 7.
      expect(Boleto.mod10CheckDigit("0123456789")).toBe(7)
      expect(Boleto.mod10CheckDigit("0000000000")).toBe(0)
    })

    it("mod 11 turns 0, 10 and 11 into 1", () => {
      // The example's sum is 160 with a final 1 (weight 2); a final 9 makes it 176 ≡ 0 → 11, a final 4 166 ≡ 1 → 10.
      expect(Boleto.generalCheckDigit("0019100000000123450000000000000000100000001")).toBe(5)
      expect(Boleto.generalCheckDigit("0019100000000123450000000000000000100000009")).toBe(1)
      expect(Boleto.generalCheckDigit("0019100000000123450000000000000000100000004")).toBe(1)
    })
  })

  describe("barcode and digitable line", () => {
    it("match the worked example", () => {
      expect(Boleto.barcode(example)).toBe(exampleBarcode)
      expect(Boleto.digitableLine(exampleBarcode)).toBe(exampleLine)
      expect(Boleto.formatDigitableLine(exampleLine)).toBe("00190.00009 00000.000000 01000.000016 5 10000000012345")
      expect(libraryAcceptsBarcode(exampleBarcode)).toBe(true)
      expect(libraryAcceptsLine(exampleLine)).toBe(true)
    })

    it("read a published Banco do Brasil boleto like the independent library does", () => {
      const line = "00190000090114971860168524522114675860000102656"
      const barcode = "00196758600001026560000001149718606852452211"
      expect(Boleto.isValidDigitableLine(line)).toBe(true)
      expect(Boleto.isValidBarcode(barcode)).toBe(true)
      expect(Boleto.barcodeOf("00190.00009 01149.718601 68524.522114 6 75860000102656")).toEqual(
        Result.succeed(barcode)
      )
      expect(Boleto.digitableLine(barcode)).toBe(line)
    })

    it("parse back what they were built from", () => {
      const fields = {
        bankCode: "001",
        factor: 1000,
        dueDate: "2025-02-22",
        amount: 12_345,
        freeField: "0000000000000000100000001"
      }
      expect(Boleto.parseBarcode(exampleBarcode)).toEqual(Result.succeed(fields))
      expect(Boleto.parseDigitableLine(Boleto.formatDigitableLine(exampleLine))).toEqual(Result.succeed(fields))
    })

    it("refuse malformed input with a reason", () => {
      const reasonOf = (result: Result.Result<unknown, Boleto.InvalidBoleto>) =>
        Result.match(result, { onSuccess: () => "valid", onFailure: (error) => error.reason })
      expect(reasonOf(Boleto.parseBarcode(exampleBarcode.slice(1)))).toBe("a barcode has 44 digits")
      expect(reasonOf(Boleto.parseBarcode(replaceAt(exampleBarcode, 3, "8")))).toBe("currency code must be 9 (real)")
      expect(reasonOf(Boleto.parseBarcode(replaceAt(exampleBarcode, 4, "6")))).toBe("invalid general check digit")
      // Factor 0000 ("no due date") with its general digit set right.
      const noDueDate = Boleto.barcode(example).slice(0, 5) + "0000" + exampleBarcode.slice(9)
      const withDigit = replaceAt(
        noDueDate,
        4,
        Boleto.generalCheckDigit(noDueDate.slice(0, 4) + noDueDate.slice(5)).toString()
      )
      expect(Boleto.isValidBarcode(withDigit)).toBe(true)
      expect(reasonOf(Boleto.parseBarcode(withDigit))).toBe("due-date factor 0 has no date")
      expect(reasonOf(Boleto.barcodeOf(exampleLine.slice(1)))).toBe("a digitable line has 47 digits")
      expect(reasonOf(Boleto.barcodeOf(replaceAt(exampleLine, 9, "0")))).toBe("invalid check digits")
    })

    it("refuse to build from parts that are not ours to get wrong", () => {
      expect(() => Boleto.barcode({ ...example, bankCode: "01" })).toThrow(RangeError)
      expect(() => Boleto.barcode({ ...example, amount: Cents.make(10_000_000_000) })).toThrow(RangeError)
      expect(() => Boleto.barcode({ ...example, freeField: "1" })).toThrow(RangeError)
      expect(() => Boleto.barcode({ ...example, dueDate: "2025-01-01" })).toThrow(RangeError)
      expect(() => Boleto.digitableLine(replaceAt(exampleBarcode, 4, "6"))).toThrow(RangeError)
      expect(() => Boleto.formatDigitableLine("123")).toThrow(RangeError)
    })

    it("have the right lengths, agree with each other and pass the independent library", () => {
      fc.assert(
        fc.property(boletoInput, (input) => {
          const { freeField, barcode, line } = build(input)
          expect(barcode).toMatch(/^\d{44}$/)
          expect(line).toMatch(/^\d{47}$/)
          expect(Boleto.barcodeOf(line)).toEqual(Result.succeed(barcode))
          expect(Boleto.parseBarcode(barcode)).toEqual(
            Result.succeed({
              bankCode: input.bankCode,
              factor: 1000 + input.days,
              dueDate: dateAfterEpoch(input.days),
              amount: input.amount,
              freeField
            })
          )
          expect(Boleto.ourNumberOf(freeField)).toBe(input.ourNumber.padStart(17, "0"))
          expect(Boleto.isValidBarcode(barcode)).toBe(true)
          expect(Boleto.isValidDigitableLine(line)).toBe(true)
          expect(libraryAcceptsBarcode(barcode)).toBe(true)
          expect(libraryAcceptsLine(line)).toBe(true)
          expect(libraryAcceptsLine(Boleto.formatDigitableLine(line))).toBe(true)
        })
      )
    })
  })

  describe("a one-digit change", () => {
    const { barcode, line } = build({
      bankCode: "341",
      amount: Cents.make(987_654),
      days: 400,
      ourNumber: "20250001",
      beneficiaryCode: "123456"
    })

    it("to any check digit, or anywhere in fields 1 to 3 of the line, is always caught", () => {
      const checkedPositions = [...Array(32).keys(), 32]
      for (const position of checkedPositions) {
        for (let shift = 1; shift <= 9; shift++) {
          const changed = replaceAt(line, position, ((Number(line[position]) + shift) % 10).toString())
          expect(libraryAcceptsLine(changed), `line position ${position}`).toBe(false)
          expect(Boleto.isValidDigitableLine(changed)).toBe(false)
        }
      }
      for (let shift = 1; shift <= 9; shift++) {
        const changed = replaceAt(barcode, 4, ((Number(barcode[4]) + shift) % 10).toString())
        expect(libraryAcceptsBarcode(changed)).toBe(false)
        expect(Boleto.isValidBarcode(changed)).toBe(false)
      }
    })

    it("is judged the same by the independent library, and slips through only where 0, 10 and 11 all read 1", () => {
      fc.assert(
        fc.property(
          boletoInput.chain((input) => {
            const built = build(input)
            return fc.record({
              original: fc.constant(built),
              barcode: oneDigitChange(built.barcode),
              line: oneDigitChange(built.line)
            })
          }),
          ({ original, barcode, line }) => {
            const barcodeAccepted = libraryAcceptsBarcode(barcode)
            // The library leaves the currency digit unchecked; we insist on 9.
            expect(Boleto.isValidBarcode(barcode)).toBe(barcodeAccepted && barcode[3] === "9")
            const lineAccepted = libraryAcceptsLine(line)
            expect(Boleto.isValidDigitableLine(line)).toBe(lineAccepted)
            // One digit moves the weighted sum by a non-multiple of 11, so the remainder changes; the digit
            // can stay the same only between remainders 0, 1 and 10, whose 11, 10 and 1 are all written 1.
            if (barcodeAccepted) expect(original.barcode[4]).toBe("1")
            if (lineAccepted) expect(original.line[32]).toBe("1")
          }
        )
      )
    })

    it("can slip through the general digit: two barcodes one digit apart, both with digit 1", () => {
      const sumZero = "00191100000000123450000000000000000100000009"
      const sumOne = "00191100000000123450000000000000000100000004"
      expect(libraryAcceptsBarcode(sumZero)).toBe(true)
      expect(libraryAcceptsBarcode(sumOne)).toBe(true)
      expect(Boleto.isValidBarcode(sumZero)).toBe(true)
      expect(Boleto.isValidBarcode(sumOne)).toBe(true)
      // Currency 9 → 3 moves the sum by 9 × −6 ≡ 1: the library still accepts; we refuse a currency other than 9.
      const currencyThree = "00131100000000123450000000000000000100000009"
      expect(libraryAcceptsBarcode(currencyThree)).toBe(true)
      expect(Boleto.isValidBarcode(currencyThree)).toBe(false)
    })
  })
})
