// SPEC 7.4 and 13.1's invariants over any sequence of sales, refunds, chargebacks, days passing (with the sweep) and
// sandbox releases: each bucket is the sum of its entries, what waits is what the waiting receivables will pay, an
// invoice's receivables sum to its net less what was taken back, and only a chargeback takes a balance below zero.
import { describe, expect, it } from "@effect/vitest"
import { Ledger, PaymentMethod } from "@fatura/domain"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { Companies } from "../src/companies/Companies.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { type ReceivableQuery, Receivables } from "../src/receivables/Receivables.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import { boletoRequest, cardRequest, listAll, pixRequest, registerMerchant, startClock } from "./support/Merchant.js"

const everything: ReceivableQuery = {
  limit: 100,
  startingAfter: null,
  status: null,
  invoice: null,
  paymentDateGte: null,
  paymentDateLte: null
}

type Step =
  | {
      readonly _tag: "Sale"
      readonly method: "pix" | "bank_slip" | "credit_card"
      readonly amount: number
      readonly installments: number
    }
  | { readonly _tag: "Refund"; readonly sale: number; readonly share: number }
  | { readonly _tag: "Chargeback"; readonly sale: number }
  | { readonly _tag: "Days"; readonly days: number }
  | { readonly _tag: "Release"; readonly sale: number }

const aStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    _tag: fc.constant("Sale" as const),
    method: fc.constantFrom("pix" as const, "bank_slip" as const, "credit_card" as const),
    amount: fc.integer({ min: 100, max: 200_000 }),
    installments: fc.integer({ min: 1, max: 12 })
  }),
  fc.record({
    _tag: fc.constant("Refund" as const),
    sale: fc.nat(),
    share: fc.double({ min: 0.01, max: 1, noNaN: true })
  }),
  fc.record({ _tag: fc.constant("Chargeback" as const), sale: fc.nat() }),
  fc.record({ _tag: fc.constant("Days" as const), days: fc.integer({ min: 1, max: 45 }) }),
  fc.record({ _tag: fc.constant("Release" as const), sale: fc.nat() })
)

const kinds = [
  ["pix", "balancePix", "waitingPix"],
  ["card", "balanceCard", "waitingCard"],
  ["bank_slip", "balanceBankSlip", "waitingBankSlip"]
] as const

/** Runs `steps` for one new company and checks SPEC 7.4 and 13.1's invariants after each. */
const runSteps = (steps: ReadonlyArray<Step>) =>
  Effect.gen(function* () {
    const { principal } = yield* registerMerchant()
    const invoices = yield* Invoices
    const lifecycle = yield* InvoiceLifecycle
    const receivables = yield* Receivables
    const sales: Array<string> = []
    let chargedBack = false
    const saleOf = (n: number) => sales[n % sales.length]!
    for (const step of steps) {
      switch (step._tag) {
        case "Sale": {
          const request =
            step.method === "credit_card"
              ? cardRequest(
                  // Each installment is at least R$ 5,00 (SPEC 6.3).
                  { installment: Math.max(1, Math.min(step.installments, Math.floor(step.amount / 500))) },
                  { totalPriceCents: step.amount }
                )
              : step.method === "pix"
                ? pixRequest({ totalPriceCents: step.amount })
                : boletoRequest({ totalPriceCents: step.amount })
          const { invoice } = yield* invoices.create(principal, request)
          if (step.method !== "credit_card") yield* lifecycle.pay(principal, invoice.secureId)
          sales.push(invoice.secureId)
          break
        }
        case "Refund": {
          if (sales.length === 0) break
          const { invoice } = yield* invoices.find(principal, saleOf(step.sale))
          const left = invoice.amount - invoice.refundedAmount
          // Refused when nothing is left, or when the balances cannot cover it: refusals change nothing.
          yield* Effect.ignore(
            lifecycle.refund(principal, invoice.secureId, Math.max(1, Math.floor(left * step.share)), null)
          )
          break
        }
        case "Chargeback": {
          if (sales.length === 0) break
          const charged = yield* Effect.result(lifecycle.chargeback(principal, saleOf(step.sale)))
          if (charged._tag === "Success") chargedBack = true
          break
        }
        case "Days": {
          yield* TestClock.adjust(`${step.days} days`)
          yield* receivables.sweep
          break
        }
        case "Release": {
          if (sales.length > 0) yield* receivables.release(principal, saleOf(step.sale))
          break
        }
      }
      const { totals } = yield* (yield* Companies).info(principal)
      const schedule = (yield* receivables.list(principal, { ...everything, limit: 100 })).receivables
      const listed = (yield* invoices.list(principal, listAll)).invoices
      for (const [kind, available, waiting] of kinds) {
        const entries = listed.flatMap((invoice) => invoice.movements).filter((entry) => entry.balance === kind)
        // available + waiting per method is the sum of its entries, each bucket the sum of its own.
        expect(totals[available]).toBe(Ledger.balanceOf(entries, kind, "available"))
        expect(totals[waiting]).toBe(Ledger.balanceOf(entries, kind, "waiting"))
        // What waits is what the method's waiting receivables will pay.
        const methodInvoices = new Set(
          listed.filter((invoice) => PaymentMethod.balanceKindOf(invoice.method) === kind).map((i) => i.secureId)
        )
        expect(totals[waiting]).toBe(
          schedule
            .filter((receivable) => methodInvoices.has(receivable.invoiceId) && receivable.status === "waiting_funds")
            .reduce((sum, receivable) => sum + receivable.netAmount, 0)
        )
        expect(totals[waiting]).toBeGreaterThanOrEqual(0)
        // Only a chargeback takes an available balance below zero.
        if (!chargedBack) expect(totals[available]).toBeGreaterThanOrEqual(0)
      }
      for (const invoice of listed) {
        if (invoice.paidAt === null) continue
        const net = schedule
          .filter((receivable) => receivable.invoiceId === invoice.secureId)
          .reduce((sum, receivable) => sum + receivable.netAmount, 0)
        // An invoice's receivables sum to its net less what was refunded or charged back.
        const takenBack = invoice.status === "chargedback" ? invoice.amount : invoice.refundedAmount
        expect(net).toBe(invoice.fee.netAmount - takenBack)
      }
    }
  })

describe("Receivables, as any sequence of moves leaves them", () => {
  it.effect("keep the balances, the buckets and each invoice's receivables adding up (SPEC 7.4, 13.1)", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(fc.array(aStep, { minLength: 1, maxLength: 14 }), (steps) =>
          Effect.runPromise(
            startClock.pipe(
              Effect.andThen(runSteps(steps)),
              Effect.provide(TestApplication.layer),
              Effect.provide(TestClock.layer())
            )
          )
        ),
        { numRuns: propertyRuns(60) }
      )
    )
  )
})
