// Pix settled by what a PSP says, continued (PixSettlements.test.ts): a refund the PSP refuses or answers when it is
// asked for, and a notification that costs at most a budget of PSP calls, however many ids it names.
import { describe, expect, it } from "@effect/vitest"
import { Timestamp } from "@fatura/domain"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { PixProvider } from "../src/pix/PixProvider.js"
import { PixReturnRepository } from "../src/pix/PixReturnRepository.js"
import { notificationCallBudget, PixSettlements, staleReturnSeconds } from "../src/pix/PixSettlements.js"
import { PixProviderRefused } from "../src/platform/Failures.js"
import { eventTypes, ledger } from "./support/Merchant.js"
import {
  balancePix,
  errorsLogged,
  find,
  forged,
  overPsp,
  paidAndNotified,
  paidAtPsp,
  paidBesideAnotherSale,
  reasonsOf
} from "./support/Psp.js"

describe("PixSettlements (in memory): refunds asked for, and notifications' budget", () => {
  it.effect(
    "ends a refund the PSP refuses when it is asked: failed with the PSP's reason, given back, not asked again",
    () =>
      overPsp((psp, principal) =>
        Effect.gen(function* () {
          const settlements = yield* PixSettlements
          const lifecycle = yield* InvoiceLifecycle
          const { invoice, net } = yield* paidBesideAnotherSale(psp, principal)

          psp.psp.returnsAnswer = "RefusedWhenAsked"
          const refused = yield* lifecycle.refund(principal, invoice.secureId, 4_000, "one item back")
          const reason = "the pix provider refused the refund: the test PSP refuses returns when they are asked for"
          expect([refused.invoice.status, refused.invoice.refundedAmount]).toEqual(["paid", 0])
          expect(refused.invoice.refunds.map((refund) => [refund.amount, refund.status, refund.failureReason])).toEqual(
            [[4_000, "failed", reason]]
          )
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
        })
      )
  )

  it.effect(
    "settles a refund by what the PSP holds under its id when the PSP refuses the request as a repeat: never given back twice",
    () =>
      overPsp(
        (psp, principal) =>
          Effect.gen(function* () {
            const { invoice, net } = yield* paidBesideAnotherSale(psp, principal)

            const refunded = yield* (yield* InvoiceLifecycle).refund(
              principal,
              invoice.secureId,
              4_000,
              "one item back"
            )
            expect([refunded.invoice.status, refunded.invoice.refundedAmount]).toEqual(["partially_refunded", 4_000])
            expect(refunded.invoice.refunds.map((refund) => refund.status)).toEqual(["succeeded"])
            expect(ledger(refunded.invoice).map(([type]) => type)).not.toContain("refund_reversal")
            expect(yield* balancePix(principal)).toBe(net - 4_000)
            expect(yield* eventTypes(principal, invoice.secureId)).not.toContain("invoice.refund_failed")
          }),
        // The PSP already made this return — the same request sent by another process at the same time, or one whose
        // answer was lost — and refuses the request that comes after it as a reused id.
        (provider) =>
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
  )

  it.effect(
    "closes the return of a pix that paid nothing as refused when the PSP refuses it, with an error logged",
    () =>
      overPsp((psp, principal) =>
        Effect.gen(function* () {
          const settlements = yield* PixSettlements
          const { invoice, pix } = yield* paidAtPsp(psp, principal, 9_999)
          psp.psp.returnsAnswer = "RefusedWhenAsked"
          const { lines } = yield* errorsLogged(settlements.notified([{ endToEndId: pix.endToEndId, returnIds: [] }]))
          expect(lines.some((line) => line.includes("could not be returned to its payer"))).toBe(true)
          expect(yield* eventTypes(principal, invoice.secureId)).toEqual([
            "invoice.created",
            "invoice.payment_rejected"
          ])
          const callsBefore = psp.psp.calls.length
          yield* TestClock.adjust(`${staleReturnSeconds + 1} seconds`)
          expect(yield* settlements.sweepReturns).toBe(0)
          expect(psp.psp.calls).toHaveLength(callsBefore)
          const muchLater = Timestamp.plusSeconds(invoice.createdAt, 365 * 86_400)
          expect(yield* (yield* PixReturnRepository).stalePixRejections(muchLater, 10)).toEqual([])
        })
      )
  )

  it.effect(
    "says why in invoice.refund_pending: the return of which pix it waits for, and that its amount is held",
    () =>
      overPsp((psp, principal) =>
        Effect.gen(function* () {
          const { invoice, pix } = yield* paidAndNotified(psp, principal)
          psp.psp.returnsAnswer = "Processing"
          yield* (yield* InvoiceLifecycle).refund(principal, invoice.secureId, 4_000, "one item back")
          const [reason] = yield* reasonsOf(principal, invoice.secureId, "invoice.refund_pending")
          expect(reason).toBe(
            `the refund of R$ 40,00 is a return of the pix ${pix.endToEndId}, asked of the pix provider, which settles ` +
              "it later: its amount is held from the pix balance until then"
          )
        })
      )
  )

  it.effect("asks the PSP once about a pix a notification names a hundred times", () =>
    overPsp((psp, principal) =>
      Effect.gen(function* () {
        const { invoice, pix } = yield* paidAtPsp(psp, principal)
        const before = psp.psp.calls.length
        yield* (yield* PixSettlements).notified(
          Array.from({ length: 100 }, () => ({ endToEndId: pix.endToEndId, returnIds: [] }))
        )
        // The pix, then its charge.
        expect(psp.psp.calls.slice(before).map((call) => call.split(" ")[0])).toEqual(["findReceived", "findCharge"])
        expect((yield* find(principal, invoice.secureId)).status).toBe("paid")
      })
    )
  )

  it.effect(
    "makes at most its budget of PSP calls for a notification of forged ids; the rest waits for the reconciliation",
    () =>
      overPsp((psp, principal) =>
        Effect.gen(function* () {
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
        })
      )
  )

  it.effect(
    "stops asking the PSP once the allowance every notification shares says no, and asks to be sent again",
    () =>
      overPsp((psp) =>
        Effect.gen(function* () {
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
        })
      )
  )

  it.effect("settles a return a notification names, once, only under the pix it returns, which the PSP confirmed", () =>
    overPsp((psp, principal) =>
      Effect.gen(function* () {
        const settlements = yield* PixSettlements
        const { invoice, pix } = yield* paidBesideAnotherSale(psp, principal)
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
      })
    )
  )
})
