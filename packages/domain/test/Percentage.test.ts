import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "fast-check"
import { Percentage } from "../src/index.js"

describe("Percentage", () => {
  const isPercentage = Schema.is(Percentage.Percentage)

  it("accepts 0 to 100 with at most two decimals", () => {
    for (const value of [0, 0.2, 1.8, 1.99, 5.99, 100]) expect(isPercentage(value)).toBe(true)
  })

  it("accepts every hundredth, whatever its floating-point form", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (hundredths) => {
        expect(isPercentage(hundredths / 100)).toBe(true)
      })
    )
  })

  it("rejects more decimals, negatives, more than 100 and non-numbers", () => {
    for (const value of [1.999, -0.01, 100.01, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(isPercentage(value)).toBe(false)
    }
  })
})
