import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "fast-check"
import { Cents } from "../src/index.js"

describe("Cents", () => {
  it("accepts only non-negative integers", () => {
    const isCents = Schema.is(Cents.Cents)
    expect(isCents(0)).toBe(true)
    expect(isCents(100_000_000)).toBe(true)
    expect(isCents(-1)).toBe(false)
    expect(isCents(1.5)).toBe(false)
    expect(isCents(Number.NaN)).toBe(false)
  })

  it("make throws on what is not cents", () => {
    expect(Cents.make(42)).toBe(42)
    expect(() => Cents.make(-1)).toThrow()
    expect(() => Cents.make(0.5)).toThrow()
  })

  describe("percentOf", () => {
    it("takes a decimal percentage", () => {
      expect(Cents.percentOf(Cents.make(10_000), 1.99)).toBe(199)
      expect(Cents.percentOf(Cents.make(10_000), 0)).toBe(0)
      expect(Cents.percentOf(Cents.make(10_000), 100)).toBe(10_000)
    })

    it("rounds half up to the cent", () => {
      expect(Cents.percentOf(Cents.make(50), 1)).toBe(1)
      expect(Cents.percentOf(Cents.make(49), 1)).toBe(0)
      expect(Cents.percentOf(Cents.make(150), 1.99)).toBe(3)
      expect(Cents.percentOf(Cents.make(12_345), 3.99)).toBe(493)
    })

    it("is exact where floating point is not", () => {
      // 375 × 9.2 % is exactly 34.5, but 375 * 9.2 / 100 is 34.49999999999999 in floating point.
      expect(Cents.percentOf(Cents.make(375), 9.2)).toBe(35)
      expect(Cents.percentOf(Cents.make(625), 4.56)).toBe(29)
    })

    it("is the nearest cent, halves up, for any amount and percentage with two decimals", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 100_000_000 }),
          fc.integer({ min: 0, max: 10_000 }),
          (amount, hundredths) => {
            const result = Cents.percentOf(Cents.make(amount), hundredths / 100)
            // result = amount × hundredths / 10 000, rounded half up: the exact value lies in [result − ½, result + ½).
            const exactTimes10000 = amount * hundredths
            expect(Number.isInteger(result)).toBe(true)
            expect(result * 10_000 - 5_000).toBeLessThanOrEqual(exactTimes10000)
            expect(exactTimes10000).toBeLessThan(result * 10_000 + 5_000)
          }
        )
      )
    })
  })

  it("formats as Brazilian reais", () => {
    expect(Cents.formatBRL(Cents.make(0))).toBe("R$ 0,00")
    expect(Cents.formatBRL(Cents.make(5))).toBe("R$ 0,05")
    expect(Cents.formatBRL(Cents.make(99))).toBe("R$ 0,99")
    expect(Cents.formatBRL(Cents.make(100))).toBe("R$ 1,00")
    expect(Cents.formatBRL(Cents.make(99_999))).toBe("R$ 999,99")
    expect(Cents.formatBRL(Cents.make(123_456))).toBe("R$ 1.234,56")
    expect(Cents.formatBRL(Cents.make(100_000_000))).toBe("R$ 1.000.000,00")
  })

  it("writes a plain decimal with two places", () => {
    expect(Cents.toDecimalString(Cents.make(0))).toBe("0.00")
    expect(Cents.toDecimalString(Cents.make(7))).toBe("0.07")
    expect(Cents.toDecimalString(Cents.make(12_340))).toBe("123.40")
    expect(Cents.toDecimalString(Cents.make(12_345))).toBe("123.45")
    expect(Cents.toDecimalString(Cents.make(100_000_000))).toBe("1000000.00")
  })

  it("writes a decimal that reads back as the same number of cents", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (amount) => {
        const text = Cents.toDecimalString(Cents.make(amount))
        expect(text).toMatch(/^\d+\.\d{2}$/)
        expect(Number(text.replace(".", ""))).toBe(amount)
      })
    )
  })
})
