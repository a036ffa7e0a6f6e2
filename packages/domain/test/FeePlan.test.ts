import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { Cents, FeePlan, PaymentMethod } from "../src/index.js"

const plan = FeePlan.defaultFeePlan
const cents = Cents.make

describe("FeePlan", () => {
  it("has SPEC 7.2's default numbers", () => {
    expect(Schema.is(FeePlan.FeePlan)(plan)).toBe(true)
    expect(plan).toEqual({
      pix: { spreadPercentage: 1.99, fixedAmount: 0 },
      bank_slip: { spreadPercentage: 0, fixedAmount: 349 },
      credit_card: {
        oneInstallment: { spreadPercentage: 3.99, fixedAmount: 39 },
        twoToSix: { spreadPercentage: 4.99, fixedAmount: 39 },
        sevenToTwelve: { spreadPercentage: 5.99, fixedAmount: 39 }
      },
      acquirerPercentage: { pix: 0.2, bank_slip: 0, credit_card: 1.8 },
      referrerPercentage: 0,
      retentionPercentage: 0,
      settlementDays: { pix: 0, bank_slip: 1, credit_card: 30 },
      withdrawalFee: 367
    })
  })

  it("takes settlement days of 0 to 366 whole days per method", () => {
    const withDays = (days: number) => ({ ...plan, settlementDays: { ...plan.settlementDays, credit_card: days } })
    for (const days of [0, 1, 30, 366]) expect(Schema.is(FeePlan.FeePlan)(withDays(days)), String(days)).toBe(true)
    for (const days of [-1, 367, 1.5]) expect(Schema.is(FeePlan.FeePlan)(withDays(days)), String(days)).toBe(false)
  })

  it("picks the card rate by installment band, and ignores installments for other methods", () => {
    const spreadFor = (method: PaymentMethod.PaymentMethod, installments: number) =>
      FeePlan.rateFor(plan, method, installments).spreadPercentage
    expect([1, 2, 6, 7, 12].map((n) => spreadFor("credit_card", n))).toEqual([3.99, 4.99, 4.99, 5.99, 5.99])
    expect(spreadFor("pix", 12)).toBe(1.99)
    expect(FeePlan.rateFor(plan, "bank_slip", 3)).toEqual({ spreadPercentage: 0, fixedAmount: 349 })
  })

  describe("split", () => {
    it.each([
      // method, installments, amount, estimatedFee, valueAdq, valuePlatform
      ["pix", 1, 10_000, 199, 20, 179],
      ["pix", 1, 12_345, 246, 25, 221], // 245.6655 → 246, 24.69 → 25
      ["bank_slip", 1, 10_000, 349, 0, 349],
      ["credit_card", 1, 10_000, 438, 180, 258],
      ["credit_card", 2, 10_000, 538, 180, 358],
      ["credit_card", 6, 10_000, 538, 180, 358],
      ["credit_card", 7, 10_000, 638, 180, 458],
      ["credit_card", 12, 10_000, 638, 180, 458],
      ["credit_card", 3, 12_345, 655, 222, 433] // 616.0155 → 616 + 39, 222.21 → 222
    ] as const)("%s in %i installment(s) of %i cents", (method, installments, amount, fee, adq, platform) => {
      const rate = FeePlan.rateFor(plan, method, installments)
      expect(FeePlan.split(plan, method, installments, cents(amount))).toEqual({
        estimatedFee: fee,
        fixedAmount: rate.fixedAmount,
        spreadPercentage: rate.spreadPercentage,
        netAmount: amount - fee,
        valueAdq: adq,
        valueIndication: 0,
        valuePlatform: platform,
        valueSeller: amount - fee,
        valueTotal: amount
      })
    })

    it("caps the fee at the amount", () => {
      expect(FeePlan.split(plan, "bank_slip", 1, cents(100))).toMatchObject({
        estimatedFee: 100,
        netAmount: 0,
        valueSeller: 0,
        valuePlatform: 100,
        valueTotal: 100
      })
    })

    it("pays the referrer out of the fee", () => {
      const referred = { ...plan, referrerPercentage: 0.5 }
      expect(FeePlan.split(referred, "pix", 1, cents(10_000))).toMatchObject({
        estimatedFee: 199,
        valueAdq: 20,
        valueIndication: 50,
        valuePlatform: 129,
        valueSeller: 9_801
      })
    })

    it("caps the acquirer's share at the fee, then the referrer's at what is left", () => {
      const free = { ...plan, pix: { spreadPercentage: 0, fixedAmount: cents(0) }, referrerPercentage: 1 }
      expect(FeePlan.split(free, "pix", 1, cents(10_000))).toMatchObject({
        estimatedFee: 0,
        valueAdq: 0,
        valueIndication: 0,
        valuePlatform: 0,
        valueSeller: 10_000
      })
      const thin = {
        ...plan,
        pix: { spreadPercentage: 1, fixedAmount: cents(0) },
        acquirerPercentage: { ...plan.acquirerPercentage, pix: 0.5 },
        referrerPercentage: 0.8
      }
      expect(FeePlan.split(thin, "pix", 1, cents(10_000))).toMatchObject({
        estimatedFee: 100,
        valueAdq: 50,
        valueIndication: 50,
        valuePlatform: 0
      })
    })

    const hundredths = (max: number) => fc.integer({ min: 0, max }).map((n) => n / 100)
    const rate = fc.record({
      spreadPercentage: hundredths(2_000),
      fixedAmount: fc.integer({ min: 0, max: 1_000 }).map(cents)
    })
    const anyPlan: fc.Arbitrary<FeePlan.FeePlan> = fc.record({
      pix: rate,
      bank_slip: rate,
      credit_card: fc.record({ oneInstallment: rate, twoToSix: rate, sevenToTwelve: rate }),
      acquirerPercentage: fc.record({
        pix: hundredths(2_000),
        bank_slip: hundredths(2_000),
        credit_card: hundredths(2_000)
      }),
      referrerPercentage: hundredths(500),
      retentionPercentage: hundredths(2_000),
      settlementDays: fc.record({
        pix: fc.integer({ min: 0, max: 60 }),
        bank_slip: fc.integer({ min: 0, max: 60 }),
        credit_card: fc.integer({ min: 0, max: 60 })
      }),
      withdrawalFee: fc.integer({ min: 0, max: 1_000 }).map(cents)
    })
    const roundHalfUp = (amount: number, percentage: number) =>
      Math.floor((amount * Math.round(percentage * 100) + 5_000) / 10_000)

    it("always adds up to the amount in non-negative whole cents", () => {
      fc.assert(
        fc.property(
          anyPlan,
          fc.constantFrom(...PaymentMethod.PaymentMethod.literals),
          fc.integer({ min: 1, max: 12 }),
          fc.integer({ min: 100, max: 100_000_000 }),
          (plan, method, installments, amount) => {
            const split = FeePlan.split(plan, method, installments, cents(amount))
            const rate = FeePlan.rateFor(plan, method, installments)
            const { valueSeller, valuePlatform, valueAdq, valueIndication, valueTotal } = split
            for (const part of [
              split.estimatedFee,
              split.netAmount,
              valueSeller,
              valuePlatform,
              valueAdq,
              valueIndication
            ]) {
              expect(Number.isSafeInteger(part) && part >= 0).toBe(true)
            }
            expect(valueSeller + valuePlatform + valueAdq + valueIndication).toBe(amount)
            expect(valueTotal).toBe(amount)
            expect(split.estimatedFee).toBeLessThanOrEqual(amount)
            expect(split.estimatedFee).toBe(
              Math.min(roundHalfUp(amount, rate.spreadPercentage) + rate.fixedAmount, amount)
            )
            expect(split.netAmount).toBe(amount - split.estimatedFee)
            expect(valueAdq).toBe(Math.min(roundHalfUp(amount, plan.acquirerPercentage[method]), split.estimatedFee))
            expect(valueIndication).toBe(
              Math.min(roundHalfUp(amount, plan.referrerPercentage), split.estimatedFee - valueAdq)
            )
            // When a payment's money becomes available has no part in how it is split.
            expect(
              FeePlan.split(
                { ...plan, settlementDays: FeePlan.defaultFeePlan.settlementDays },
                method,
                installments,
                cents(amount)
              )
            ).toEqual(split)
          }
        ),
        { numRuns: propertyRuns(2_000) }
      )
    })
  })
})
