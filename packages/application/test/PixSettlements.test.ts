// Pix settled by what a PSP says, over the in-memory ports and a stand-in PSP (support/Psp.ts): a notified pix pays its
// invoice once, and only when the PSP vouches for it; a pix of another amount pays nothing and says why, once; the
// reconciliation pays what was never notified; a refund of a PSP's pix is held until the PSP returns it or refuses it;
// a PSP that cannot be reached makes nothing, until the same request under its Idempotency-Key works.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { PixProvider } from "../src/pix/PixProvider.js"
import { PixSettlements, staleReturnSeconds } from "../src/pix/PixSettlements.js"
import { CurrentIdempotentRun } from "../src/platform/IdempotencyStore.js"
import { Postbacks } from "../src/postbacks/Postbacks.js"
import { eventTypes, ledger, pixRequest } from "./support/Merchant.js"
import { balancePix, find, overPsp, paidAndNotified, paidAtPsp, paidBesideAnotherSale } from "./support/Psp.js"

describe("PixSettlements (in memory)", () => {
  it.effect("pays the invoice of a notified pix once the PSP vouches for it, and once only", () =>
    overPsp((psp, principal) =>
      Effect.gen(function* () {
        const settlements = yield* PixSettlements
        const { invoice, pix } = yield* paidAtPsp(psp, principal)

        // A pix the PSP never received is no payment, whatever the notification says.
        yield* settlements.notified([{ endToEndId: "E00000000999999999999999999999999", returnIds: [] }])
        expect((yield* find(principal, invoice.secureId)).status).toBe("pending")

        yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
        yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
        const paid = yield* find(principal, invoice.secureId)
        expect(paid.status).toBe("paid")
        expect(paid.pix?.endToEndId).toBe(pix.endToEndId)
        expect(ledger(paid)).toEqual([
          ["payment", "credit", 10_000],
          ["fee", "debit", paid.fee.estimatedFee]
        ])
        expect(yield* eventTypes(principal, invoice.secureId)).toEqual(["invoice.created", "invoice.paid"])
        expect(yield* balancePix(principal)).toBe(paid.fee.netAmount)
      })
    )
  )

  it.effect("leaves an invoice pending when a pix of another amount arrives, with one event that says why", () =>
    overPsp((psp, principal) =>
      Effect.gen(function* () {
        const settlements = yield* PixSettlements
        const { invoice, pix } = yield* paidAtPsp(psp, principal, 9_999)
        yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
        yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
        expect((yield* find(principal, invoice.secureId)).status).toBe("pending")
        expect(yield* eventTypes(principal, invoice.secureId)).toEqual(["invoice.created", "invoice.payment_rejected"])
        const { events } = yield* (yield* Postbacks).events(principal, {
          limit: 10,
          startingAfter: null,
          type: "invoice.payment_rejected",
          invoice: invoice.secureId
        })
        expect(events[0]?.reason).toContain("R$ 99,99")
        expect(events[0]?.reason).toContain(pix.endToEndId)
        // It paid nothing, so it goes back to its payer whole, once.
        expect([...psp.psp.returns.values()].map(({ request }) => [request.endToEndId, request.amount])).toEqual([
          [pix.endToEndId, 9_999]
        ])
      })
    )
  )

  it.effect("pays at the reconciliation the invoices whose notification never came, once", () =>
    overPsp((psp, principal) =>
      Effect.gen(function* () {
        const settlements = yield* PixSettlements
        const { invoice, pix } = yield* paidAtPsp(psp, principal)
        yield* TestClock.adjust("1 minute")
        expect(yield* settlements.reconcile).toBe(1)
        expect(yield* settlements.reconcile).toBe(0)
        const paid = yield* find(principal, invoice.secureId)
        expect([paid.status, paid.pix?.endToEndId]).toEqual(["paid", pix.endToEndId])
        expect(ledger(paid)).toHaveLength(2)
      })
    )
  )

  it.effect("holds a refund of a PSP's pix until the PSP returns it, and gives it back when the PSP refuses", () =>
    overPsp((psp, principal) =>
      Effect.gen(function* () {
        const settlements = yield* PixSettlements
        const lifecycle = yield* InvoiceLifecycle
        const { invoice, pix, net } = yield* paidBesideAnotherSale(psp, principal)

        psp.psp.returnsAnswer = "Processing"
        const asked = yield* lifecycle.refund(principal, invoice.secureId, 4_000, "one item back")
        expect([asked.invoice.status, asked.invoice.refundedAmount]).toEqual(["paid", 0])
        expect(asked.invoice.refunds.map((refund) => [refund.amount, refund.status])).toEqual([[4_000, "pending"]])
        expect(yield* balancePix(principal)).toBe(net - 4_000)
        // What is held counts against what is left.
        expect(yield* Effect.flip(lifecycle.refund(principal, invoice.secureId, 6_001, null))).toMatchObject({
          _tag: "RefundExceedsRemaining"
        })

        const [returnId] = [...psp.psp.returns.keys()]
        yield* psp.settleReturn(returnId!, { _tag: "Returned", at: asked.invoice.updatedAt })
        yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [returnId!] }])
        // Told again, nothing moves twice.
        yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [returnId!] }])
        const partial = yield* find(principal, invoice.secureId)
        expect([partial.status, partial.refundedAmount]).toEqual(["partially_refunded", 4_000])
        expect(yield* balancePix(principal)).toBe(net - 4_000)

        psp.psp.returnsAnswer = "Refused"
        const refused = yield* lifecycle.refund(principal, invoice.secureId, null, null)
        expect([refused.invoice.status, refused.invoice.refundedAmount]).toEqual(["partially_refunded", 4_000])
        expect(refused.invoice.refunds.map((refund) => refund.status)).toEqual(["succeeded", "failed"])
        expect(refused.invoice.refunds[1]?.failureReason).toMatch(/refuses/)
        expect(ledger(refused.invoice).slice(-2)).toEqual([
          ["refund", "debit", 6_000],
          ["refund_reversal", "credit", 6_000]
        ])
        expect(yield* balancePix(principal)).toBe(net - 4_000)
        expect(yield* eventTypes(principal, invoice.secureId)).toEqual([
          "invoice.created",
          "invoice.paid",
          "invoice.refund_pending",
          "invoice.partially_refunded",
          "invoice.refund_pending",
          "invoice.refund_failed"
        ])
      })
    )
  )

  it.effect("returns a pix that paid nothing once the PSP can be asked, at the sweep", () =>
    overPsp((psp, principal) =>
      Effect.gen(function* () {
        const settlements = yield* PixSettlements
        const { invoice } = yield* paidAndNotified(psp, principal)
        // A second pix for the same charge: the invoice is paid already.
        const second = yield* psp.pay(invoice.pix!.txid)
        psp.psp.returnsAnswer = "Processing"
        yield* settlements.notified([{ endToEndId: second.endToEndId, returnIds: [] }])
        expect(yield* eventTypes(principal, invoice.secureId)).toEqual([
          "invoice.created",
          "invoice.paid",
          "invoice.payment_rejected"
        ])
        const [returnId] = [...psp.psp.returns.keys()]
        expect(psp.psp.returns.get(returnId!)?.request).toMatchObject({ endToEndId: second.endToEndId, amount: 10_000 })
        // Settled at the PSP, and known at the next sweep, once.
        yield* psp.settleReturn(returnId!, { _tag: "Returned", at: invoice.createdAt })
        yield* TestClock.adjust(`${staleReturnSeconds + 1} seconds`)
        expect(yield* settlements.sweepReturns).toBe(1)
        expect(yield* settlements.sweepReturns).toBe(0)
        expect((yield* find(principal, invoice.secureId)).status).toBe("paid")
      })
    )
  )

  it.effect("asks again, once stale, for a return the PSP could not be asked for", () =>
    overPsp((psp, principal) =>
      Effect.gen(function* () {
        const settlements = yield* PixSettlements
        const { invoice } = yield* paidBesideAnotherSale(psp, principal)

        psp.psp.down = true
        const asked = yield* (yield* InvoiceLifecycle).refund(principal, invoice.secureId, null, null)
        expect(asked.invoice.refunds.map((refund) => refund.status)).toEqual(["pending"])
        psp.psp.down = false
        expect(psp.psp.returns.size).toBe(0)

        yield* TestClock.adjust(`${staleReturnSeconds - 1} seconds`)
        expect(yield* settlements.sweepReturns).toBe(0)
        yield* TestClock.adjust("2 seconds")
        expect(yield* settlements.sweepReturns).toBe(1)
        expect(yield* settlements.sweepReturns).toBe(0)
        expect(psp.psp.returns.size).toBe(1)
        expect((yield* find(principal, invoice.secureId)).status).toBe("refunded")
      })
    )
  )

  it.effect("creates nothing while the PSP cannot be reached; the same run resumes with the same invoice id", () =>
    overPsp((psp, principal) =>
      Effect.gen(function* () {
        const invoices = yield* Invoices
        const points: Array<string> = []
        const run = (recoveryPoint: string | null) => ({
          recoveryPoint,
          checkpoint: (point: string) => Effect.sync(() => void points.push(point))
        })
        psp.psp.down = true
        const refused = yield* Effect.flip(
          invoices.create(principal, pixRequest()).pipe(Effect.provideService(CurrentIdempotentRun, run(null)))
        )
        expect(refused._tag).toBe("PixProviderUnavailable")
        expect(psp.psp.charges.size).toBe(0)
        const [point] = points
        expect(JSON.parse(point!)).toHaveProperty("pixInvoice")

        psp.psp.down = false
        const created = yield* invoices
          .create(principal, pixRequest())
          .pipe(Effect.provideService(CurrentIdempotentRun, run(point!)))
        expect(created.invoice.secureId).toBe(JSON.parse(point!).pixInvoice)
        expect([...psp.psp.charges.keys()]).toEqual([created.invoice.pix?.txid])
        expect(Option.isSome(yield* (yield* PixProvider).findCharge(created.invoice.pix!.txid))).toBe(true)
      })
    )
  )
})
