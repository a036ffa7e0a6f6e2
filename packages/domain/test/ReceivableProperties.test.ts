// Properties of a payment's receivables, for any payment: schedule divides it in parts that add up on business days,
// and takeBack keeps a card's receivables adding up, its ledger's buckets equal to them, through refunds and waits.
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { BusinessCalendar, Cents, FeePlan, Ledger, PaymentMethod, Receivable, Timestamp } from "../src/index.js"
import { netOf, sum, waitingOf } from "./support/Receivables.js"

const plan = FeePlan.defaultFeePlan
const secondsPerDay = 86_400

/** What each bucket of a balance holds after `entries`, and what its receivables add up to. */
const buckets = (
  entries: ReadonlyArray<Ledger.Entry>,
  receivables: ReadonlyArray<Receivable.NewReceivable>,
  balance: PaymentMethod.BalanceKind
) => ({
  ledger: {
    available: Ledger.balanceOf(entries, balance, "available"),
    waiting: Ledger.balanceOf(entries, balance, "waiting")
  },
  receivables: {
    available: netOf(receivables.filter((r) => Receivable.bucketOf(r.status) === "available")),
    waiting: netOf(receivables.filter((r) => Receivable.bucketOf(r.status) === "waiting"))
  }
})

describe("Receivable properties", () => {
  const days = fc.integer({ min: 0, max: 60 })
  const settlementDays = fc.record({ pix: days, bank_slip: days, credit_card: days })
  const paidAt = fc
    .date({ min: new Date("2025-01-01T00:00:00Z"), max: new Date("2030-12-31T23:59:59Z"), noInvalidDate: true })
    .map((date) => Timestamp.fromEpochMicros(BigInt(date.getTime()) * 1_000n))
  const amountAndFee = fc
    .integer({ min: 100, max: 1_000_000 })
    .chain((amount) => fc.tuple(fc.constant(amount), fc.integer({ min: 0, max: amount })))

  it("schedules a payment in parts that add up, on business days from the day of payment, in its buckets", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PaymentMethod.PaymentMethod.literals),
        fc.integer({ min: 1, max: 12 }),
        amountAndFee,
        settlementDays,
        paidAt,
        (method, installments, [amount, fee], settlementDays, paidAt) => {
          const { receivables, movements } = Receivable.schedule(
            { settlementDays },
            { method, installments, amount: Cents.make(amount), fee: Cents.make(fee), paidAt }
          )
          const balance = PaymentMethod.balanceKindOf(method)
          const paidOn = BusinessCalendar.saoPauloDate(paidAt)
          const days = settlementDays[method]
          expect(receivables.map((r) => r.installment)).toEqual(
            Array.from({ length: method === "credit_card" ? installments : 1 }, (_, index) => index + 1)
          )
          expect(sum(receivables, (r) => r.amount)).toBe(amount)
          expect(sum(receivables, (r) => r.fee)).toBe(fee)
          receivables.forEach((r, index) => {
            expect(r.netAmount).toBe(r.amount - r.fee)
            expect(r.balance).toBe(balance)
            expect(r.originalPaymentDate).toBe(r.paymentDate)
            expect(r.status).toBe(days === 0 ? "available" : "waiting_funds")
            if (days === 0) {
              expect(r.paymentDate).toBe(paidOn)
            } else {
              // The first business day from `days` times the installment after the day of payment.
              const from = BusinessCalendar.plusDays(paidOn, days * r.installment)
              expect(r.paymentDate >= from && BusinessCalendar.isBusinessDay(r.paymentDate)).toBe(true)
              for (let skipped = from; skipped < r.paymentDate; skipped = BusinessCalendar.plusDays(skipped, 1)) {
                expect(BusinessCalendar.isBusinessDay(skipped)).toBe(false)
              }
            }
            expect(r.paymentDate >= paidOn).toBe(true)
            const previous = receivables[index - 1]
            if (previous !== undefined) expect(r.paymentDate >= previous.paymentDate).toBe(true)
          })
          const credited = movements.filter((e) => e.type === "payment")
          const debited = movements.filter((e) => e.type === "fee")
          expect(movements).toHaveLength(credited.length + debited.length)
          expect(sum(credited, (e) => e.amount)).toBe(amount)
          expect(sum(debited, (e) => e.amount)).toBe(fee)
          const { ledger, receivables: scheduled } = buckets(movements, receivables, balance)
          expect(ledger).toEqual(scheduled)
        }
      ),
      { numRuns: propertyRuns(1_000) }
    )
  })

  type Step =
    /** A refund of thousandths of what is left to refund (at least a cent). */
    | { readonly _tag: "refund"; readonly thousandths: number }
    /** Days go by, and what falls due is made available. */
    | { readonly _tag: "wait"; readonly days: number }
  const step: fc.Arbitrary<Step> = fc.oneof(
    {
      arbitrary: fc.record({ _tag: fc.constant("refund" as const), thousandths: fc.integer({ min: 1, max: 1_000 }) }),
      weight: 3
    },
    { arbitrary: fc.record({ _tag: fc.constant("wait" as const), days: fc.integer({ min: 0, max: 100 }) }), weight: 1 }
  )

  it("takes back from a card's receivables so that they always add up, and no installment's waiting sum below 0", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        amountAndFee,
        days,
        paidAt,
        fc.array(step, { maxLength: 12 }),
        fc.boolean(),
        (installments, [amount, fee], creditCard, paidAt, steps, chargedBack) => {
          const scheduled = Receivable.schedule(
            { settlementDays: { ...plan.settlementDays, credit_card: creditCard } },
            { method: "credit_card", installments, amount: Cents.make(amount), fee: Cents.make(fee), paidAt }
          )
          let receivables: ReadonlyArray<Receivable.Receivable> = scheduled.receivables.map((r, index) => ({
            ...r,
            id: index + 1
          }))
          let ledger: ReadonlyArray<Ledger.Entry> = scheduled.movements
          let now = paidAt
          let refunded = 0
          // What an installment may wait below 0: what its payment scheduled, when its fee's part passes its amount's.
          const floorOf = new Map(receivables.map((r) => [r.installment, Math.min(0, r.netAmount)]))
          const check = (takenBack: number) => {
            expect(netOf(receivables)).toBe(amount - fee - takenBack)
            const { ledger: inLedger, receivables: inReceivables } = buckets(ledger, receivables, "card")
            expect(inLedger).toEqual(inReceivables)
            for (const [installment, floor] of floorOf) {
              expect(waitingOf(receivables, installment)).toBeGreaterThanOrEqual(floor)
            }
          }
          const takeBack = (type: "refund" | "chargeback", requested: number) => {
            const before = receivables
            const result = Receivable.takeBack(type, "credit_card", before, Cents.make(requested), now)
            expect(result.fromWaiting + result.fromAvailable).toBe(requested)
            expect(netOf(result.receivables)).toBe(-requested)
            // Latest installment first: each taken from an earlier one than the last, none left behind a later one.
            const fromWaiting = result.receivables.filter((r) => r.status === "waiting_funds")
            expect(sum(fromWaiting, (r) => -r.amount)).toBe(result.fromWaiting)
            fromWaiting.forEach((r, index) => {
              expect(r.amount).toBeLessThan(0)
              expect(r.paymentDate).toBe(before.find((b) => b.installment === r.installment)?.paymentDate)
              if (index > 0) expect(r.installment).toBeLessThan(fromWaiting[index - 1]!.installment)
            })
            const after = [...before, ...result.receivables]
            const lowest = fromWaiting.at(-1)?.installment ?? Number.POSITIVE_INFINITY
            for (const installment of floorOf.keys()) {
              if (installment > lowest || result.fromAvailable > 0) {
                expect(waitingOf(after, installment)).toBeLessThanOrEqual(0)
              }
            }
            const today = BusinessCalendar.saoPauloDate(now)
            expect(result.receivables.filter((r) => r.status !== "waiting_funds")).toEqual(
              result.fromAvailable > 0
                ? [expect.objectContaining({ amount: -result.fromAvailable, status: "available", paymentDate: today })]
                : []
            )
            expect(Ledger.balanceOf(result.movements, "card", "waiting") + result.fromWaiting).toBe(0)
            expect(Ledger.balanceOf(result.movements, "card", "available") + result.fromAvailable).toBe(0)
            expect(result.movements.every((e) => e.type === type)).toBe(true)
            receivables = [
              ...before,
              ...result.receivables.map((r, index) => ({ ...r, id: before.length + index + 1 }))
            ]
            ledger = [...ledger, ...result.movements]
          }
          check(0)
          for (const next of steps) {
            if (next._tag === "wait") {
              now = Timestamp.plusSeconds(now, next.days * secondsPerDay)
              const today = BusinessCalendar.saoPauloDate(now)
              const settlements = receivables
                .filter((r) => Receivable.isDue(r, today))
                .map((r) => Receivable.settle(r, today))
              const settled = new Set(settlements.map((s) => s.receivable.id))
              receivables = receivables.map((r) => (settled.has(r.id) ? { ...r, status: "available" } : r))
              ledger = [...ledger, ...settlements.flatMap((s) => s.movements)]
            } else {
              const left = amount - refunded
              if (left === 0) continue
              const requested = Math.max(1, Math.floor((left * next.thousandths) / 1_000))
              takeBack("refund", requested)
              refunded += requested
            }
            check(refunded)
          }
          if (chargedBack && refunded < amount) {
            takeBack("chargeback", amount - refunded)
            check(amount)
          }
        }
      ),
      { numRuns: propertyRuns(500) }
    )
  })
})
