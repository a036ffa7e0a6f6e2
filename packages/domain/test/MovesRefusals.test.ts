// What each move of an invoice refuses, and with which error; and what a held refund, a card charge and a return
// write once accepted.
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { Cents, FeePlan, type Invoice, Ledger, Moves, type PaymentMethod } from "../src/index.js"
import { applied, at, pendingInvoice, type State, start } from "./support/Invoices.js"
import { receivable } from "./support/Receivables.js"

const plan = FeePlan.defaultFeePlan

describe("Moves", () => {
  describe("refusals", () => {
    const paidCard = applied(
      pendingInvoice("credit_card", 10_000),
      Result.getOrThrow(Moves.chargeback({ ...pendingInvoice("credit_card", 10_000), status: "paid" }, [], at(0)))
    )
    const paid = (method: PaymentMethod.PaymentMethod): State => ({
      ...pendingInvoice(method, 10_000),
      status: "paid",
      paidAt: at(0)
    })
    const failure = <A, E>(result: Result.Result<A, E>) => (Result.isFailure(result) ? result.failure : undefined)

    it("pay: a card invoice, an invoice not pending, a pix of another amount", () => {
      expect(failure(Moves.pay(pendingInvoice("credit_card", 10_000), at(1), plan))).toBeInstanceOf(
        Moves.PaidByCardOnly
      )
      expect(failure(Moves.pay(paid("pix"), at(1), plan))).toMatchObject({ _tag: "InvalidTransition", from: "paid" })
      expect(
        failure(Moves.pay(pendingInvoice("pix", 10_000), at(1), plan, { endToEndId: "E1", amount: 9_999 }))
      ).toMatchObject({ _tag: "PaymentMismatch", received: 9_999, amount: 10_000 })
      // The status is judged before the amount: a pix of any amount for a paid invoice is refused as a move.
      expect(failure(Moves.pay(paid("pix"), at(1), plan, { endToEndId: "E1", amount: 1 }))).toMatchObject({
        _tag: "InvalidTransition"
      })
    })

    it("refund: an invoice not paid, more than is left, nothing left", () => {
      expect(failure(Moves.refund(pendingInvoice("pix", 10_000), [], null, null, at(1)))).toMatchObject({
        _tag: "InvalidTransition",
        from: "pending"
      })
      expect(failure(Moves.refund(paid("pix"), [], 10_001, null, at(1)))).toMatchObject({
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
      expect(failure(Moves.refund({ ...paid("pix"), refunds: [held] }, [], null, null, at(1)))).toMatchObject({
        _tag: "RefundExceedsRemaining",
        remaining: 0
      })
    })

    it("refund: a provider's pix is held for its return, anything else refunded at once", () => {
      const pix = Result.getOrThrow(Moves.pay(pendingInvoice("pix", 10_000), at(0), plan)).receivables
      const byPsp: State = { ...paid("pix"), pix: { qrCode: "", txid: "tx", expiresAt: start, endToEndId: "E1" } }
      // The pix was available at once: its refund comes out of the available balance, today.
      expect(Result.getOrThrow(Moves.refund(byPsp, pix, 2_500, "r", at(1)))).toEqual({
        _tag: "Held",
        amount: 2_500,
        waiting: 0,
        reason: "r",
        endToEndId: "E1",
        event: "invoice.refund_pending",
        movements: Ledger.onTakeBack("refund", "pix", Cents.make(0), Cents.make(2_500)),
        receivables: [
          receivable({
            installment: 1,
            amount: -2_500,
            fee: 0,
            balance: "pix",
            status: "available",
            paymentDate: "2026-09-21"
          })
        ]
      })
      const charge = { fee: { estimatedFee: 438 }, installments: 1 }
      const card = Result.getOrThrow(
        Moves.settleCardCharge(pendingInvoice("credit_card", 10_000), charge, null, at(0), plan)
      ).receivables
      // The card's 9 562 still waits: the refund takes it, and the 438 of fee from the available balance.
      expect(Result.getOrThrow(Moves.refund(paid("credit_card"), card, null, "r", at(1)))).toEqual({
        _tag: "Refunded",
        amount: 10_000,
        waiting: 9_562,
        transition: {
          status: "refunded",
          event: "invoice.refunded",
          at: at(1),
          paidAt: at(0),
          refundedAmount: 10_000,
          movements: Ledger.onTakeBack("refund", "credit_card", Cents.make(9_562), Cents.make(438)),
          receivables: [
            receivable({
              installment: 1,
              amount: -9_562,
              fee: 0,
              balance: "card",
              status: "waiting_funds",
              paymentDate: "2026-10-21"
            }),
            receivable({
              installment: 1,
              amount: -438,
              fee: 0,
              balance: "card",
              status: "available",
              paymentDate: "2026-09-21"
            })
          ],
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
      expect(failure(Moves.chargeback(paid("pix"), [], at(1)))).toMatchObject({ _tag: "NotChargeable", method: "pix" })
      expect(failure(Moves.chargeback(paid("pix"), [], at(1)))?.message).toBe(
        "cannot charge back a pix invoice: only card payments are charged back"
      )
      expect(failure(Moves.chargeback(pendingInvoice("credit_card", 10_000), [], at(1)))).toMatchObject({
        _tag: "InvalidTransition",
        from: "pending"
      })
      expect(failure(Moves.chargeback(paidCard, [], at(1)))).toMatchObject({
        _tag: "InvalidTransition",
        from: "chargedback"
      })
    })

    it("settleCardCharge: a charge answered once its invoice was no longer pending is late", () => {
      const charge = { fee: { estimatedFee: 538 }, installments: 2 }
      for (const refusedReason of [null, "card_declined"]) {
        expect(failure(Moves.settleCardCharge(paid("credit_card"), charge, refusedReason, at(1), plan))).toMatchObject({
          _tag: "InvalidTransition",
          from: "paid",
          action: refusedReason === null ? "pay" : "decline"
        })
      }
      // Paid on Monday 2026-09-21: the first installment on 2026-10-21, the second on Friday 2026-11-20, a holiday
      // (Consciência Negra), so on Monday 2026-11-23.
      expect(
        Result.getOrThrow(Moves.settleCardCharge(pendingInvoice("credit_card", 10_000), charge, null, at(1), plan))
      ).toEqual({
        status: "paid",
        event: "invoice.paid",
        at: at(1),
        paidAt: at(1),
        refusedReason: null,
        movements: Ledger.onPaid("credit_card", Cents.make(10_000), Cents.make(538), "waiting"),
        receivables: [
          receivable({
            installment: 1,
            amount: 5_000,
            fee: 269,
            balance: "card",
            status: "waiting_funds",
            paymentDate: "2026-10-21"
          }),
          receivable({
            installment: 2,
            amount: 5_000,
            fee: 269,
            balance: "card",
            status: "waiting_funds",
            paymentDate: "2026-11-23"
          })
        ]
      })
      expect(
        Result.getOrThrow(
          Moves.settleCardCharge(pendingInvoice("credit_card", 10_000), charge, "card_declined", at(1), plan)
        )
      ).toEqual({
        status: "refused",
        event: "invoice.refused",
        at: at(1),
        paidAt: null,
        refusedReason: "card_declined",
        movements: [],
        receivables: []
      })
    })

    it("settleReturn: a return of an invoice no longer refundable; a refused one gives back what it held", () => {
      const refunded: State = { ...paid("pix"), status: "refunded", refundedAmount: Cents.make(10_000) }
      expect(failure(Moves.settleReturn(refunded, [], Cents.make(1), { _tag: "Returned" }, at(1)))).toMatchObject({
        _tag: "InvalidTransition",
        from: "refunded"
      })
      expect(
        Result.getOrThrow(
          Moves.settleReturn(paid("pix"), [], Cents.make(300), { _tag: "Refused", reason: "no" }, at(1))
        )
      ).toEqual({
        _tag: "Refused",
        reason: "no",
        event: "invoice.refund_failed",
        movements: Ledger.onRefundRefused("pix", Cents.make(0), Cents.make(300)),
        receivables: [
          receivable({
            installment: 1,
            amount: 300,
            fee: 0,
            balance: "pix",
            status: "available",
            paymentDate: "2026-09-21"
          })
        ]
      })
      expect(
        Result.getOrThrow(Moves.settleReturn(paid("pix"), [], Cents.make(10_000), { _tag: "Returned" }, at(1)))
      ).toMatchObject({
        _tag: "Returned",
        transition: {
          status: "refunded",
          event: "invoice.refunded",
          refundedAmount: 10_000,
          movements: [],
          receivables: []
        }
      })
    })
  })
})
