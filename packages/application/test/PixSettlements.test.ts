// Pix settled by what a PSP says, over the in-memory ports and a stand-in PSP: a notified pix pays its invoice once,
// and only when the PSP vouches for it; a pix of another amount pays nothing and says why, once; the reconciliation
// pays what was never notified; a refund of a PSP's pix is held until the PSP returns it or refuses it — later, or
// when it is asked for; a PSP that cannot be reached makes nothing, until the same request under its Idempotency-Key
// works; and a notification costs at most a budget of PSP calls, however many ids it names.
import { describe, expect, it } from "@effect/vitest"
import { Timestamp } from "@fatura/domain"
import { Effect, Layer, Logger, Option } from "effect"
import { TestClock } from "effect/testing"
import { Companies } from "../src/companies/Companies.js"
import type { Principal } from "../src/companies/Principal.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { PixProvider } from "../src/pix/PixProvider.js"
import { PixReturnRepository } from "../src/pix/PixReturnRepository.js"
import { notificationCallBudget, PixSettlements, staleReturnSeconds } from "../src/pix/PixSettlements.js"
import { PixProviderRefused } from "../src/platform/Failures.js"
import { CurrentIdempotentRun } from "../src/platform/IdempotencyStore.js"
import { Postbacks } from "../src/postbacks/Postbacks.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import * as TestPixProvider from "../src/testing/TestPixProvider.js"
import { eventTypes, ledger, pixRequest, registerMerchant, startClock } from "./support/Merchant.js"

/** The application over a stand-in PSP the test drives. */
const withPsp = () => {
  const psp = TestPixProvider.make()
  const layer = TestApplication.withProviders(Layer.mergeAll(TestApplication.providers, psp.layer))
  return { ...psp, layer }
}

const balancePix = (principal: Principal) =>
  Effect.gen(function* () {
    const { totals } = yield* (yield* Companies).info(principal)
    return totals.balancePix
  })

/** A pix invoice, and the pix a payer paid it with at the PSP (another amount when given). */
const paidAtPsp = (psp: ReturnType<typeof withPsp>, principal: Principal, amount?: number) =>
  Effect.gen(function* () {
    const invoice = (yield* (yield* Invoices).create(principal, pixRequest())).invoice
    const pix = yield* psp.pay(invoice.pix!.txid, amount)
    return { invoice, pix }
  })

/** Another pix sale, paid by the sandbox helper: a balance that can pay a full refund back (fees are not returned). */
const anotherSale = (principal: Principal) =>
  Effect.gen(function* () {
    const sale = (yield* (yield* Invoices).create(principal, pixRequest({ totalPriceCents: 50_000 }))).invoice
    yield* (yield* InvoiceLifecycle).pay(principal, sale.secureId)
  })

/** The reasons of the invoice's events of `type`, oldest first. */
const reasonsOf = (principal: Principal, secureId: string, type: "invoice.refund_pending" | "invoice.refund_failed") =>
  Effect.gen(function* () {
    const { events } = yield* (yield* Postbacks).events(principal, {
      limit: 10,
      startingAfter: null,
      type,
      invoice: secureId
    })
    return events.map((event) => event.reason).reverse()
  })

/** The error lines logged while `effect` runs. */
const errorsLogged = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
  const lines: Array<string> = []
  const logger = Logger.make(({ logLevel, message }) => {
    if (logLevel === "Error") lines.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
  })
  return Effect.map(Effect.provide(effect, Logger.layer([logger])), (value) => ({ value, lines }))
}

/** A forged end-to-end id: well formed, and no pix the PSP received. */
const forged = (n: number) => `E99999999${String(n).padStart(23, "0")}`

const find = (principal: Principal, secureId: string) =>
  Effect.gen(function* () {
    return (yield* (yield* Invoices).find(principal, secureId)).invoice
  })

describe("PixSettlements (in memory)", () => {
  it.effect("pays the invoice of a notified pix once the PSP vouches for it, and once only", () => {
    const psp = withPsp()
    return Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
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
    }).pipe(Effect.provide(psp.layer))
  })

  it.effect("leaves an invoice pending when a pix of another amount arrives, with one event that says why", () => {
    const psp = withPsp()
    return Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
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
    }).pipe(Effect.provide(psp.layer))
  })

  it.effect("pays at the reconciliation the invoices whose notification never came, once", () => {
    const psp = withPsp()
    return Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
      const settlements = yield* PixSettlements
      const { invoice, pix } = yield* paidAtPsp(psp, principal)
      yield* TestClock.adjust("1 minute")
      expect(yield* settlements.reconcile).toBe(1)
      expect(yield* settlements.reconcile).toBe(0)
      const paid = yield* find(principal, invoice.secureId)
      expect([paid.status, paid.pix?.endToEndId]).toEqual(["paid", pix.endToEndId])
      expect(ledger(paid)).toHaveLength(2)
    }).pipe(Effect.provide(psp.layer))
  })

  it.effect("holds a refund of a PSP's pix until the PSP returns it, and gives it back when the PSP refuses", () => {
    const psp = withPsp()
    return Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
      const settlements = yield* PixSettlements
      const lifecycle = yield* InvoiceLifecycle
      const { invoice, pix } = yield* paidAtPsp(psp, principal)
      yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
      yield* anotherSale(principal)
      const net = yield* balancePix(principal)

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
    }).pipe(Effect.provide(psp.layer))
  })

  it.effect("returns a pix that paid nothing once the PSP can be asked, at the sweep", () => {
    const psp = withPsp()
    return Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
      const settlements = yield* PixSettlements
      const { invoice, pix } = yield* paidAtPsp(psp, principal)
      yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
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
    }).pipe(Effect.provide(psp.layer))
  })

  it.effect("asks again, once stale, for a return the PSP could not be asked for", () => {
    const psp = withPsp()
    return Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
      const settlements = yield* PixSettlements
      const { invoice, pix } = yield* paidAtPsp(psp, principal)
      yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
      yield* anotherSale(principal)

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
    }).pipe(Effect.provide(psp.layer))
  })

  it.effect("creates nothing while the PSP cannot be reached; the same run resumes with the same invoice id", () => {
    const psp = withPsp()
    return Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
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
    }).pipe(Effect.provide(psp.layer))
  })
  it.effect(
    "ends a refund the PSP refuses when it is asked: failed with the PSP's reason, given back, not asked again",
    () => {
      const psp = withPsp()
      return Effect.gen(function* () {
        yield* startClock
        const { principal } = yield* registerMerchant()
        const settlements = yield* PixSettlements
        const lifecycle = yield* InvoiceLifecycle
        const { invoice, pix } = yield* paidAtPsp(psp, principal)
        yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
        yield* anotherSale(principal)
        const net = yield* balancePix(principal)

        psp.psp.returnsAnswer = "RefusedWhenAsked"
        const refused = yield* lifecycle.refund(principal, invoice.secureId, 4_000, "one item back")
        const reason = "the pix provider refused the refund: the test PSP refuses returns when they are asked for"
        expect([refused.invoice.status, refused.invoice.refundedAmount]).toEqual(["paid", 0])
        expect(refused.invoice.refunds.map((refund) => [refund.amount, refund.status, refund.failureReason])).toEqual([
          [4_000, "failed", reason]
        ])
        expect(ledger(refused.invoice).slice(-2)).toEqual([
          ["refund", "debit", 4_000],
          ["refund_reversal", "credit", 4_000]
        ])
        expect(yield* balancePix(principal)).toBe(net)
        expect(yield* eventTypes(principal, invoice.secureId)).toEqual([
          "invoice.created",
          "invoice.paid",
          "invoice.refund_pending",
          "invoice.refund_failed"
        ])
        expect(yield* reasonsOf(principal, invoice.secureId, "invoice.refund_failed")).toEqual([reason])
        // Asked once — where it stands, for it, and, refused, where it stands after all — and never again: it is no
        // longer pending.
        const returnCalls = () => psp.psp.calls.filter((call) => /^(find|request)Return /.test(call))
        expect(returnCalls().map((call) => call.split(" ")[0])).toEqual(["findReturn", "requestReturn", "findReturn"])
        yield* TestClock.adjust(`${staleReturnSeconds + 1} seconds`)
        expect(yield* settlements.sweepReturns).toBe(0)
        expect(returnCalls()).toHaveLength(3)

        // It holds nothing: the whole invoice may be refunded again.
        psp.psp.returnsAnswer = "Returned"
        const refunded = yield* lifecycle.refund(principal, invoice.secureId, null, null)
        expect([refunded.invoice.status, refunded.invoice.refundedAmount]).toEqual(["refunded", 10_000])
        expect(yield* balancePix(principal)).toBe(net - 10_000)
      }).pipe(Effect.provide(psp.layer))
    }
  )

  it.effect(
    "settles a refund by what the PSP holds under its id when the PSP refuses the request as a repeat: never given back twice",
    () => {
      // The PSP already made this return — the same request sent by another process at the same time, or one whose
      // answer was lost — and refuses the request that comes after it as a reused id.
      const psp = TestPixProvider.make()
      const provider = psp.provider
      const repeatRefused = Layer.succeed(
        PixProvider,
        PixProvider.of({
          ...provider,
          requestReturn: (request) =>
            provider
              .requestReturn(request)
              .pipe(
                Effect.andThen(
                  Effect.fail(
                    new PixProviderRefused({ message: "id já utilizado", reason: "the return id was already used" })
                  )
                )
              )
        })
      )
      const layer = TestApplication.withProviders(Layer.mergeAll(TestApplication.providers, repeatRefused))
      return Effect.gen(function* () {
        yield* startClock
        const { principal } = yield* registerMerchant()
        const settlements = yield* PixSettlements
        const lifecycle = yield* InvoiceLifecycle
        const invoice = (yield* (yield* Invoices).create(principal, pixRequest())).invoice
        const pix = yield* psp.pay(invoice.pix!.txid)
        yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
        yield* anotherSale(principal)
        const net = yield* balancePix(principal)

        const refunded = yield* lifecycle.refund(principal, invoice.secureId, 4_000, "one item back")
        expect([refunded.invoice.status, refunded.invoice.refundedAmount]).toEqual(["partially_refunded", 4_000])
        expect(refunded.invoice.refunds.map((refund) => refund.status)).toEqual(["succeeded"])
        expect(ledger(refunded.invoice).map(([type]) => type)).not.toContain("refund_reversal")
        expect(yield* balancePix(principal)).toBe(net - 4_000)
        expect(yield* eventTypes(principal, invoice.secureId)).not.toContain("invoice.refund_failed")
      }).pipe(Effect.provide(layer))
    }
  )

  it.effect(
    "closes the return of a pix that paid nothing as refused when the PSP refuses it, with an error logged",
    () => {
      const psp = withPsp()
      return Effect.gen(function* () {
        yield* startClock
        const { principal } = yield* registerMerchant()
        const settlements = yield* PixSettlements
        const { invoice, pix } = yield* paidAtPsp(psp, principal, 9_999)
        psp.psp.returnsAnswer = "RefusedWhenAsked"
        const { lines } = yield* errorsLogged(settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }]))
        expect(lines.some((line) => line.includes("could not be returned to its payer"))).toBe(true)
        expect(yield* eventTypes(principal, invoice.secureId)).toEqual(["invoice.created", "invoice.payment_rejected"])
        const callsBefore = psp.psp.calls.length
        yield* TestClock.adjust(`${staleReturnSeconds + 1} seconds`)
        expect(yield* settlements.sweepReturns).toBe(0)
        expect(psp.psp.calls).toHaveLength(callsBefore)
        const muchLater = Timestamp.plusSeconds(invoice.createdAt, 365 * 86_400)
        expect(yield* (yield* PixReturnRepository).stalePixRejections(muchLater, 10)).toEqual([])
      }).pipe(Effect.provide(psp.layer))
    }
  )

  it.effect(
    "says why in invoice.refund_pending: the return of which pix it waits for, and that its amount is held",
    () => {
      const psp = withPsp()
      return Effect.gen(function* () {
        yield* startClock
        const { principal } = yield* registerMerchant()
        const { invoice, pix } = yield* paidAtPsp(psp, principal)
        yield* (yield* PixSettlements).notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
        psp.psp.returnsAnswer = "Processing"
        yield* (yield* InvoiceLifecycle).refund(principal, invoice.secureId, 4_000, "one item back")
        const [reason] = yield* reasonsOf(principal, invoice.secureId, "invoice.refund_pending")
        expect(reason).toBe(
          `the refund of R$ 40,00 is a return of the pix ${pix.endToEndId}, asked of the pix provider, which settles ` +
            "it later: its amount is held from the pix balance until then"
        )
      }).pipe(Effect.provide(psp.layer))
    }
  )

  it.effect("asks the PSP once about a pix a notification names a hundred times", () => {
    const psp = withPsp()
    return Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
      const { invoice, pix } = yield* paidAtPsp(psp, principal)
      const before = psp.psp.calls.length
      yield* (yield* PixSettlements).notified(
        Array.from({ length: 100 }, () => ({ endToEndId: pix.endToEndId, returnIds: [] }))
      )
      // The pix, then its charge.
      expect(psp.psp.calls.slice(before).map((call) => call.split(" ")[0])).toEqual(["findReceived", "findCharge"])
      expect((yield* find(principal, invoice.secureId)).status).toBe("paid")
    }).pipe(Effect.provide(psp.layer))
  })

  it.effect(
    "makes at most its budget of PSP calls for a notification of forged ids; the rest waits for the reconciliation",
    () => {
      const psp = withPsp()
      return Effect.gen(function* () {
        yield* startClock
        const { principal } = yield* registerMerchant()
        const settlements = yield* PixSettlements
        const { invoice, pix } = yield* paidAtPsp(psp, principal)
        const before = psp.psp.calls.length
        const forgedIds = Array.from({ length: 50 }, (_, n) => ({ endToEndId: forged(n), returnIds: [] }))
        yield* settlements.notified([...forgedIds, { endToEndId: pix.endToEndId, returnIds: [] }])
        expect(psp.psp.calls.length - before).toBe(notificationCallBudget)
        // The real pix was past the budget: the reconciliation, which lists every pix the PSP received, pays it.
        expect((yield* find(principal, invoice.secureId)).status).toBe("pending")
        yield* TestClock.adjust("1 minute")
        expect(yield* settlements.reconcile).toBe(1)
        expect((yield* find(principal, invoice.secureId)).status).toBe("paid")
      }).pipe(Effect.provide(psp.layer))
    }
  )

  it.effect(
    "stops asking the PSP once the allowance every notification shares says no, and asks to be sent again",
    () => {
      const psp = withPsp()
      return Effect.gen(function* () {
        yield* startClock
        yield* registerMerchant()
        let allowed = 3
        const allowance = Effect.sync(() => allowed-- > 0)
        const failure = yield* Effect.flip(
          (yield* PixSettlements).notified(
            Array.from({ length: 5 }, (_, n) => ({ endToEndId: forged(n), returnIds: [] })),
            allowance
          )
        )
        expect(failure._tag).toBe("PixProviderUnavailable")
        expect(psp.psp.calls).toEqual([forged(0), forged(1), forged(2)].map((id) => `findReceived ${id}`))
      }).pipe(Effect.provide(psp.layer))
    }
  )

  it.effect(
    "settles a return a notification names, once, only under the pix it returns, which the PSP confirmed",
    () => {
      const psp = withPsp()
      return Effect.gen(function* () {
        yield* startClock
        const { principal } = yield* registerMerchant()
        const settlements = yield* PixSettlements
        const { invoice, pix } = yield* paidAtPsp(psp, principal)
        yield* settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
        yield* anotherSale(principal)
        psp.psp.returnsAnswer = "Processing"
        yield* (yield* InvoiceLifecycle).refund(principal, invoice.secureId, 4_000, null)
        const [returnId] = [...psp.psp.returns.keys()]
        yield* psp.settleReturn(returnId!, { _tag: "Returned", at: invoice.createdAt })

        // Under a pix the PSP never received, the return is not even looked at.
        const before = psp.psp.calls.length
        yield* settlements.notified([{ endToEndId: forged(1), returnIds: [returnId!, returnId!] }])
        expect(psp.psp.calls.slice(before)).toEqual([`findReceived ${forged(1)}`])
        expect((yield* find(principal, invoice.secureId)).status).toBe("paid")

        // Under its own pix, named twice, with its id twice: asked about once.
        const confirmed = psp.psp.calls.length
        yield* settlements.notified([
          { endToEndId: pix.endToEndId, returnIds: [returnId!, returnId!] },
          { endToEndId: pix.endToEndId, returnIds: [returnId!] }
        ])
        expect(psp.psp.calls.slice(confirmed).filter((call) => call.includes(returnId!))).toEqual([
          `findReturn ${returnId}`
        ])
        expect((yield* find(principal, invoice.secureId)).status).toBe("partially_refunded")
      }).pipe(Effect.provide(psp.layer))
    }
  )
})
