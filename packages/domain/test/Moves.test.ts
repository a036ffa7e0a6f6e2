import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { Cents, FeePlan, type Invoice, Ledger, Moves, PaymentMethod, Refund, Timestamp } from "../src/index.js"

type State = Moves.Movable

const start = Timestamp.fromEpochMicros(1_790_000_000_000_000n)
const at = (step: number) => Timestamp.plusSeconds(start, step)

const pendingInvoice = (method: PaymentMethod.PaymentMethod, amount: number): State => ({
  status: "pending",
  method,
  amount: Cents.make(amount),
  refundedAmount: Cents.make(0),
  paidAt: null,
  fee: FeePlan.split(FeePlan.defaultFeePlan, method, 1, Cents.make(amount)),
  pix: method === "pix" ? { qrCode: "", txid: "tx", expiresAt: start, endToEndId: null } : null,
  refunds: []
})

/** The invoice as it is after `transition`, as the history writer leaves it. */
const applied = (invoice: State, transition: Moves.Transition): State => ({
  ...invoice,
  status: transition.status,
  paidAt: transition.paidAt,
  refundedAmount: transition.refundedAmount,
  pix:
    invoice.pix === null || transition.pixEndToEndId === undefined
      ? invoice.pix
      : { ...invoice.pix, endToEndId: transition.pixEndToEndId }
})

type Action =
  | { readonly _tag: "pay" }
  | { readonly _tag: "payByPix"; readonly amountOff: number }
  /** A refund of thousandths of the amount (past 1000, more than it), or of everything left. */
  | { readonly _tag: "refund"; readonly thousandths: number | null }
  | { readonly _tag: "expire" }
  | { readonly _tag: "chargeback" }
  | { readonly _tag: "cardCharge"; readonly approved: boolean }
  | {
      readonly _tag: "settleReturn"
      readonly which: number
      readonly outcome: { readonly _tag: "Returned" } | { readonly _tag: "Refused"; readonly reason: string }
    }

// Weighted so that most runs get an invoice paid and then move its money several times.
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.constant({ _tag: "pay" } as const), weight: 2 },
  {
    arbitrary: fc.record({ _tag: fc.constant("payByPix" as const), amountOff: fc.constantFrom(0, 0, 1, -1) }),
    weight: 2
  },
  {
    arbitrary: fc.record({
      _tag: fc.constant("refund" as const),
      thousandths: fc.option(fc.integer({ min: 1, max: 1_100 }), { nil: null })
    }),
    weight: 5
  },
  { arbitrary: fc.constant({ _tag: "expire" } as const), weight: 1 },
  { arbitrary: fc.constant({ _tag: "chargeback" } as const), weight: 2 },
  { arbitrary: fc.record({ _tag: fc.constant("cardCharge" as const), approved: fc.boolean() }), weight: 3 },
  {
    arbitrary: fc.record({
      _tag: fc.constant("settleReturn" as const),
      which: fc.nat(4),
      outcome: fc.constantFrom({ _tag: "Returned" } as const, { _tag: "Refused", reason: "no" } as const)
    }),
    weight: 3
  }
)

interface Run {
  readonly invoice: State
  readonly ledger: ReadonlyArray<Ledger.Entry>
  /** What the invoice was charged, when its card's charge or a payment paid it. */
  readonly feeCharged: number
}

/** Applies one action to a run; a refused action leaves it as it was. */
const step = (run: Run, next: Action, n: number): Run => {
  const { invoice, ledger } = run
  const now = at(n)
  const moved = (transition: Moves.Transition, feeCharged = run.feeCharged): Run => ({
    invoice: applied(invoice, transition),
    ledger: [...ledger, ...transition.movements],
    feeCharged
  })
  switch (next._tag) {
    case "pay": {
      const paid = Moves.pay(invoice, now)
      return Result.isSuccess(paid) ? moved(paid.success, invoice.fee.estimatedFee) : run
    }
    case "payByPix": {
      const received = { endToEndId: `E${n}`, amount: invoice.amount + next.amountOff }
      const paid = Moves.pay(invoice, now, received)
      return Result.isSuccess(paid) ? moved(paid.success, invoice.fee.estimatedFee) : run
    }
    case "refund": {
      const requested = next.thousandths === null ? null : Math.ceil((invoice.amount * next.thousandths) / 1_000)
      const refunded = Moves.refund(invoice, requested, null, now)
      if (Result.isFailure(refunded)) return run
      const move = refunded.success
      if (move._tag === "Refunded") return moved(move.transition)
      const held: Invoice.RefundRecord = {
        id: invoice.refunds.length + 1,
        amount: move.amount,
        reason: null,
        status: "pending",
        failureReason: null,
        createdAt: now
      }
      return {
        ...run,
        invoice: { ...invoice, refunds: [...invoice.refunds, held] },
        ledger: [...ledger, ...move.movements]
      }
    }
    case "expire": {
      const expired = Moves.expire(invoice, now)
      return Result.isSuccess(expired) ? moved(expired.success) : run
    }
    case "chargeback": {
      const chargedBack = Moves.chargeback(invoice, now)
      return Result.isSuccess(chargedBack) ? moved(chargedBack.success) : run
    }
    case "cardCharge": {
      if (invoice.method !== "credit_card") return run
      const fee = invoice.fee.estimatedFee as Cents.Cents
      const settled = Moves.settleCardCharge(invoice, fee, next.approved ? null : "card_declined", now)
      if (Result.isFailure(settled)) return run
      const settlement = settled.success
      return {
        invoice: { ...invoice, status: settlement.status, paidAt: settlement.paidAt },
        ledger: [...ledger, ...settlement.movements],
        feeCharged: settlement.status === "paid" ? fee : run.feeCharged
      }
    }
    case "settleReturn": {
      const pending = invoice.refunds.filter((refund) => refund.status === "pending")
      const held = pending[next.which % Math.max(pending.length, 1)]
      if (held === undefined) return run
      const settled = Moves.settleReturn(invoice, held.amount, next.outcome, now)
      // A pending refund holds part of a paid or partially refunded invoice that nothing else moves.
      expect(Result.isSuccess(settled)).toBe(true)
      if (Result.isFailure(settled)) return run
      const closed = (status: Invoice.RefundStatus) =>
        invoice.refunds.map((refund) => (refund === held ? { ...refund, status } : refund))
      const settlement = settled.success
      if (settlement._tag === "Refused") {
        return {
          ...run,
          invoice: { ...invoice, refunds: closed("failed") },
          ledger: [...ledger, ...settlement.movements]
        }
      }
      const after = moved(settlement.transition)
      return { ...after, invoice: { ...after.invoice, refunds: closed("succeeded") } }
    }
  }
}

const balanceOf = (run: Run) => Ledger.balanceOf(run.ledger, PaymentMethod.balanceKindOf(run.invoice.method))

describe("Moves", () => {
  it("for any sequence of actions: refunded ≤ amount, and ledger = paid − fee − refunded − charged back", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PaymentMethod.PaymentMethod.literals),
        fc.integer({ min: 100, max: 1_000_000 }),
        fc.array(action, { maxLength: 16 }),
        (method, amount, actions) => {
          let run: Run = { invoice: pendingInvoice(method, amount), ledger: [], feeCharged: 0 }
          actions.forEach((next, n) => {
            run = step(run, next, n + 1)
            const { invoice } = run
            const held = Refund.pendingAmount(invoice)
            expect(invoice.refundedAmount + held).toBeLessThanOrEqual(invoice.amount)
            const paid = invoice.paidAt === null ? 0 : invoice.amount
            const fee = invoice.paidAt === null ? 0 : run.feeCharged
            const chargedBack = invoice.status === "chargedback" ? invoice.amount - invoice.refundedAmount : 0
            expect(balanceOf(run)).toBe(paid - fee - (invoice.refundedAmount + held) - chargedBack)
            expect(run.ledger.every((entry) => entry.amount >= 0 && Number.isSafeInteger(entry.amount))).toBe(true)
          })
        }
      ),
      { numRuns: propertyRuns(300) }
    )
  })

  it("writes the event of the status it moves to", () => {
    const paid = Result.getOrThrow(Moves.pay(pendingInvoice("pix", 10_000), at(1)))
    expect(paid).toMatchObject({ status: "paid", event: "invoice.paid", at: at(1), paidAt: at(1), refund: null })
    expect(paid.movements).toEqual(Ledger.onPaid("pix", Cents.make(10_000), Cents.make(199)))
    expect("pixEndToEndId" in paid).toBe(false)
    const viaPix = Result.getOrThrow(
      Moves.pay(pendingInvoice("pix", 10_000), at(1), { endToEndId: "E1", amount: 10_000 })
    )
    expect(viaPix.pixEndToEndId).toBe("E1")
    const expired = Result.getOrThrow(Moves.expire(pendingInvoice("bank_slip", 10_000), at(2)))
    expect(expired).toEqual({
      status: "expired",
      event: "invoice.expired",
      at: at(2),
      paidAt: null,
      refundedAmount: 0,
      movements: [],
      refund: null
    })
  })

  describe("refusals", () => {
    const paidCard = applied(
      pendingInvoice("credit_card", 10_000),
      Result.getOrThrow(Moves.chargeback({ ...pendingInvoice("credit_card", 10_000), status: "paid" }, at(0)))
    )
    const paid = (method: PaymentMethod.PaymentMethod): State => ({
      ...pendingInvoice(method, 10_000),
      status: "paid",
      paidAt: at(0)
    })
    const failure = <A, E>(result: Result.Result<A, E>) => (Result.isFailure(result) ? result.failure : undefined)

    it("pay: a card invoice, an invoice not pending, a pix of another amount", () => {
      expect(failure(Moves.pay(pendingInvoice("credit_card", 10_000), at(1)))).toBeInstanceOf(Moves.PaidByCardOnly)
      expect(failure(Moves.pay(paid("pix"), at(1)))).toMatchObject({ _tag: "InvalidTransition", from: "paid" })
      expect(
        failure(Moves.pay(pendingInvoice("pix", 10_000), at(1), { endToEndId: "E1", amount: 9_999 }))
      ).toMatchObject({ _tag: "PaymentMismatch", received: 9_999, amount: 10_000 })
      // The status is judged before the amount: a pix of any amount for a paid invoice is refused as a move.
      expect(failure(Moves.pay(paid("pix"), at(1), { endToEndId: "E1", amount: 1 }))).toMatchObject({
        _tag: "InvalidTransition"
      })
    })

    it("refund: an invoice not paid, more than is left, nothing left", () => {
      expect(failure(Moves.refund(pendingInvoice("pix", 10_000), null, null, at(1)))).toMatchObject({
        _tag: "InvalidTransition",
        from: "pending"
      })
      expect(failure(Moves.refund(paid("pix"), 10_001, null, at(1)))).toMatchObject({
        _tag: "RefundExceedsRemaining",
        requested: 10_001,
        remaining: 10_000
      })
      const held: Invoice.RefundRecord = {
        id: 1,
        amount: Cents.make(10_000),
        reason: null,
        status: "pending",
        failureReason: null,
        createdAt: at(0)
      }
      expect(failure(Moves.refund({ ...paid("pix"), refunds: [held] }, null, null, at(1)))).toMatchObject({
        _tag: "RefundExceedsRemaining",
        remaining: 0
      })
    })

    it("refund: a provider's pix is held for its return, anything else refunded at once", () => {
      const byPsp: State = { ...paid("pix"), pix: { qrCode: "", txid: "tx", expiresAt: start, endToEndId: "E1" } }
      expect(Result.getOrThrow(Moves.refund(byPsp, 2_500, "r", at(1)))).toEqual({
        _tag: "Held",
        amount: 2_500,
        reason: "r",
        endToEndId: "E1",
        event: "invoice.refund_pending",
        movements: Ledger.onRefund("pix", Cents.make(2_500))
      })
      expect(Result.getOrThrow(Moves.refund(paid("credit_card"), null, "r", at(1)))).toEqual({
        _tag: "Refunded",
        amount: 10_000,
        transition: {
          status: "refunded",
          event: "invoice.refunded",
          at: at(1),
          paidAt: at(0),
          refundedAmount: 10_000,
          movements: Ledger.onRefund("credit_card", Cents.make(10_000)),
          refund: { amount: 10_000, reason: "r" }
        }
      })
    })

    it("expire: an invoice not pending", () => {
      for (const status of ["paid", "refused", "expired", "refunded"] as const) {
        expect(failure(Moves.expire({ ...pendingInvoice("pix", 10_000), status }, at(1)))).toMatchObject({
          _tag: "InvalidTransition",
          from: status,
          action: "expire"
        })
      }
    })

    it("chargeback: an invoice not a card's, one not paid, one charged back already", () => {
      expect(failure(Moves.chargeback(paid("pix"), at(1)))).toMatchObject({ _tag: "NotChargeable", method: "pix" })
      expect(failure(Moves.chargeback(paid("pix"), at(1)))?.message).toBe(
        "cannot charge back a pix invoice: only card payments are charged back"
      )
      expect(failure(Moves.chargeback(pendingInvoice("credit_card", 10_000), at(1)))).toMatchObject({
        _tag: "InvalidTransition",
        from: "pending"
      })
      expect(failure(Moves.chargeback(paidCard, at(1)))).toMatchObject({
        _tag: "InvalidTransition",
        from: "chargedback"
      })
    })

    it("settleCardCharge: a charge answered once its invoice was no longer pending is late", () => {
      const fee = Cents.make(438)
      for (const refusedReason of [null, "card_declined"]) {
        expect(failure(Moves.settleCardCharge(paid("credit_card"), fee, refusedReason, at(1)))).toMatchObject({
          _tag: "InvalidTransition",
          from: "paid",
          action: refusedReason === null ? "pay" : "decline"
        })
      }
      expect(
        Result.getOrThrow(Moves.settleCardCharge(pendingInvoice("credit_card", 10_000), fee, null, at(1)))
      ).toEqual({
        status: "paid",
        event: "invoice.paid",
        at: at(1),
        paidAt: at(1),
        refusedReason: null,
        movements: Ledger.onPaid("credit_card", Cents.make(10_000), fee)
      })
      expect(
        Result.getOrThrow(Moves.settleCardCharge(pendingInvoice("credit_card", 10_000), fee, "card_declined", at(1)))
      ).toEqual({
        status: "refused",
        event: "invoice.refused",
        at: at(1),
        paidAt: null,
        refusedReason: "card_declined",
        movements: []
      })
    })

    it("settleReturn: a return of an invoice no longer refundable; a refused one gives back what it held", () => {
      const refunded: State = { ...paid("pix"), status: "refunded", refundedAmount: Cents.make(10_000) }
      expect(failure(Moves.settleReturn(refunded, Cents.make(1), { _tag: "Returned" }, at(1)))).toMatchObject({
        _tag: "InvalidTransition",
        from: "refunded"
      })
      expect(
        Result.getOrThrow(Moves.settleReturn(paid("pix"), Cents.make(300), { _tag: "Refused", reason: "no" }, at(1)))
      ).toEqual({
        _tag: "Refused",
        reason: "no",
        event: "invoice.refund_failed",
        movements: Ledger.onRefundRefused("pix", Cents.make(300))
      })
      expect(
        Result.getOrThrow(Moves.settleReturn(paid("pix"), Cents.make(10_000), { _tag: "Returned" }, at(1)))
      ).toMatchObject({
        _tag: "Returned",
        transition: { status: "refunded", event: "invoice.refunded", refundedAmount: 10_000, movements: [] }
      })
    })
  })
})
