// What Fatura charges a company per payment method (SPEC 7.2), and how one invoice's amount is split between
// the seller, the acquirer, the referrer and the platform (SPEC 7.3).
import { Schema } from "effect"
import * as Cents from "./Cents.js"
import type { PaymentMethod } from "./PaymentMethod.js"
import { Percentage } from "./Percentage.js"

/** Whole days, at most a year. */
export const SettlementDays = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 366 }))

export const Rate = Schema.Struct({ spreadPercentage: Percentage, fixedAmount: Cents.Cents })
export type Rate = typeof Rate.Type

export const FeePlan = Schema.Struct({
  pix: Rate,
  bank_slip: Rate,
  credit_card: Schema.Struct({ oneInstallment: Rate, twoToSix: Rate, sevenToTwelve: Rate }),
  /** What the acquirer keeps of each payment; it comes out of Fatura's fee, not on top of it. */
  acquirerPercentage: Schema.Struct({ pix: Percentage, bank_slip: Percentage, credit_card: Percentage }),
  /** The referrer's share, 0 unless the company came through a referral (`is_indication_tax`). */
  referrerPercentage: Percentage,
  /** Shown to the company as `retention_tax`; it takes no part in the split. */
  retentionPercentage: Percentage,
  /**
   * The days after a payment its money becomes available (SPEC 13.1): per installment for cards (installment k at
   * k times the days), moved to the next business day unless 0.
   */
  settlementDays: Schema.Struct({ pix: SettlementDays, bank_slip: SettlementDays, credit_card: SettlementDays }),
  /** What a withdrawal to the company's bank account costs, on top of its amount (SPEC 13.3). */
  withdrawalFee: Cents.Cents
})
export type FeePlan = typeof FeePlan.Type

const cardRate = (spreadPercentage: number): Rate => ({ spreadPercentage, fixedAmount: Cents.make(39) })

export const defaultFeePlan: FeePlan = {
  pix: { spreadPercentage: 1.99, fixedAmount: Cents.make(0) },
  bank_slip: { spreadPercentage: 0, fixedAmount: Cents.make(349) },
  credit_card: { oneInstallment: cardRate(3.99), twoToSix: cardRate(4.99), sevenToTwelve: cardRate(5.99) },
  acquirerPercentage: { pix: 0.2, bank_slip: 0, credit_card: 1.8 },
  referrerPercentage: 0,
  retentionPercentage: 0,
  settlementDays: { pix: 0, bank_slip: 1, credit_card: 30 },
  withdrawalFee: Cents.make(367)
}

/** The rate of a payment; `installments` (1–12, validated at the edge) matters only for cards. */
export const rateFor = (plan: FeePlan, method: PaymentMethod, installments: number): Rate => {
  switch (method) {
    case "pix":
    case "bank_slip":
      return plan[method]
    case "credit_card":
      if (installments <= 1) return plan.credit_card.oneInstallment
      return installments <= 6 ? plan.credit_card.twoToSix : plan.credit_card.sevenToTwelve
  }
}

/** The seed's `fee` object and `invoice.value_*` fields of one invoice, all in cents. */
export const FeeSplit = Schema.Struct({
  estimatedFee: Cents.Cents,
  fixedAmount: Cents.Cents,
  spreadPercentage: Percentage,
  netAmount: Cents.Cents,
  valueAdq: Cents.Cents,
  valueIndication: Cents.Cents,
  valuePlatform: Cents.Cents,
  valueSeller: Cents.Cents,
  valueTotal: Cents.Cents
})
export type FeeSplit = typeof FeeSplit.Type

/**
 * Splits `amount` so that valueSeller + valuePlatform + valueAdq + valueIndication = valueTotal = amount.
 * The acquirer and referrer are paid out of the fee, so their shares are capped by it (the acquirer's first):
 * the platform's part can shrink to 0 but never below.
 */
export const split = (plan: FeePlan, method: PaymentMethod, installments: number, amount: Cents.Cents): FeeSplit => {
  const { spreadPercentage, fixedAmount } = rateFor(plan, method, installments)
  const estimatedFee = Cents.make(Math.min(Cents.percentOf(amount, spreadPercentage) + fixedAmount, amount))
  const netAmount = Cents.make(amount - estimatedFee)
  const valueAdq = Cents.make(Math.min(Cents.percentOf(amount, plan.acquirerPercentage[method]), estimatedFee))
  const valueIndication = Cents.make(
    Math.min(Cents.percentOf(amount, plan.referrerPercentage), estimatedFee - valueAdq)
  )
  return {
    estimatedFee,
    fixedAmount,
    spreadPercentage,
    netAmount,
    valueAdq,
    valueIndication,
    valuePlatform: Cents.make(estimatedFee - valueAdq - valueIndication),
    valueSeller: netAmount,
    valueTotal: amount
  }
}
