// What the moves of an invoice write: the event of its new status, the payment's receivables and movements, and a
// refund or a chargeback taken from the invoice's waiting receivables first.
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { BusinessCalendar, Cents, FeePlan, Ledger, Moves } from "../src/index.js"
import { applied, at, pendingInvoice, type State } from "./support/Invoices.js"
import { netOf, receivable } from "./support/Receivables.js"

const plan = FeePlan.defaultFeePlan

describe("Moves", () => {
  it("writes the event of the status it moves to, and the payment's receivables", () => {
    const paid = Result.getOrThrow(Moves.pay(pendingInvoice("pix", 10_000), at(1), plan))
    expect(paid).toMatchObject({ status: "paid", event: "invoice.paid", at: at(1), paidAt: at(1), refund: null })
    expect(paid.movements).toEqual(Ledger.onPaid("pix", Cents.make(10_000), Cents.make(199), "available"))
    // A pix is available the moment it is paid.
    expect(paid.receivables).toEqual([
      receivable({
        installment: 1,
        amount: 10_000,
        fee: 199,
        balance: "pix",
        status: "available",
        paymentDate: "2026-09-21"
      })
    ])
    expect("pixEndToEndId" in paid).toBe(false)
    const viaPix = Result.getOrThrow(
      Moves.pay(pendingInvoice("pix", 10_000), at(1), plan, { endToEndId: "E1", amount: 10_000 })
    )
    expect(viaPix.pixEndToEndId).toBe("E1")
    // A boleto paid on Monday waits until Tuesday.
    const boleto = Result.getOrThrow(Moves.pay(pendingInvoice("bank_slip", 10_000), at(1), plan))
    expect(boleto.movements).toEqual(Ledger.onPaid("bank_slip", Cents.make(10_000), Cents.make(349), "waiting"))
    expect(boleto.receivables).toEqual([
      receivable({
        installment: 1,
        amount: 10_000,
        fee: 349,
        balance: "bank_slip",
        status: "waiting_funds",
        paymentDate: "2026-09-22"
      })
    ])
    // A company's own plan dates them by its own days.
    const slow = { settlementDays: { ...plan.settlementDays, pix: 2 } }
    const slowPix = Result.getOrThrow(Moves.pay(pendingInvoice("pix", 10_000), at(1), slow))
    expect(slowPix.movements).toEqual(Ledger.onPaid("pix", Cents.make(10_000), Cents.make(199), "waiting"))
    expect(slowPix.receivables).toMatchObject([{ status: "waiting_funds", paymentDate: "2026-09-23" }])
    const expired = Result.getOrThrow(Moves.expire(pendingInvoice("bank_slip", 10_000), at(2)))
    expect(expired).toEqual({
      status: "expired",
      event: "invoice.expired",
      at: at(2),
      paidAt: null,
      refundedAmount: 0,
      movements: [],
      receivables: [],
      refund: null
    })
  })

  it("pays a boleto at the bank for what the payer paid, saying so when it is not the boleto's amount", () => {
    const boleto = pendingInvoice("bank_slip", 10_000)
    const bank = (amount: number) => ({ amount: Cents.make(amount), creditedOn: null })
    const exact = Result.getOrThrow(Moves.payAtBank(boleto, at(1), plan, bank(10_000)))
    expect(exact).toEqual(Result.getOrThrow(Moves.pay(boleto, at(1), plan)))
    const short = Result.getOrThrow(Moves.payAtBank(boleto, at(1), plan, bank(9_500)))
    expect(short).toMatchObject({
      status: "paid",
      event: "invoice.paid",
      detail: "paid at the bank: R$ 95,00 for a boleto of R$ 100,00"
    })
    expect(short.movements).toEqual(Ledger.onPaid("bank_slip", Cents.make(9_500), Cents.make(349), "waiting"))
    expect(netOf(short.receivables)).toBe(9_500 - 349)
    // A paid boleto is paid once; a card is paid by its charge alone.
    expect(Result.isFailure(Moves.payAtBank({ ...boleto, status: "paid" }, at(2), plan, bank(10_000)))).toBe(true)
    expect(Result.isFailure(Moves.payAtBank(pendingInvoice("credit_card", 10_000), at(2), plan, bank(10_000)))).toBe(
      true
    )
  })

  it("makes a boleto paid at the bank available on the day the bank credits it, never before the payment", () => {
    const boleto = pendingInvoice("bank_slip", 10_000)
    const paidOn = BusinessCalendar.saoPauloDate(at(1))
    const creditedOn = BusinessCalendar.plusDays(paidOn, 4)
    const credited = Result.getOrThrow(Moves.payAtBank(boleto, at(1), plan, { amount: Cents.make(10_000), creditedOn }))
    expect(credited.receivables.map((receivable) => [receivable.paymentDate, receivable.status])).toEqual([
      [creditedOn, "waiting_funds"]
    ])
    // A credit date before the payment (a bank's mistake) makes it available on the day it was paid.
    const early = Result.getOrThrow(
      Moves.payAtBank(boleto, at(1), plan, {
        amount: Cents.make(10_000),
        creditedOn: BusinessCalendar.plusDays(paidOn, -2)
      })
    )
    expect(early.receivables.map((receivable) => [receivable.paymentDate, receivable.status])).toEqual([
      [paidOn, "available"]
    ])
  })

  it("pays a hybrid boleto by its pix, saying so, and a pix invoice by its pix without a word", () => {
    const received = { endToEndId: "E12345678202611291200abcdefghijk", amount: 10_000 }
    const boleto = Result.getOrThrow(Moves.pay(pendingInvoice("bank_slip", 10_000), at(1), plan, received))
    expect(boleto).toMatchObject({
      status: "paid",
      pixEndToEndId: received.endToEndId,
      detail: `paid by pix (end-to-end id ${received.endToEndId}), not at the bank`
    })
    const pix = Result.getOrThrow(Moves.pay(pendingInvoice("pix", 10_000), at(1), plan, received))
    expect(pix.pixEndToEndId).toBe(received.endToEndId)
    expect(pix.detail).toBeUndefined()
    // At the bank, the boleto's own way, there is nothing to say.
    expect(Result.getOrThrow(Moves.pay(pendingInvoice("bank_slip", 10_000), at(1), plan)).detail).toBeUndefined()
  })

  it("takes a refund from the invoice's waiting receivables first, the rest from the available balance", () => {
    const charge = { fee: { estimatedFee: 538 }, installments: 2 }
    const card = Result.getOrThrow(
      Moves.settleCardCharge(pendingInvoice("credit_card", 10_000), charge, null, at(0), plan)
    )
    const paidCard: State = { ...pendingInvoice("credit_card", 10_000), status: "paid", paidAt: at(0) }
    // 4 731 waits on each installment; 6 000 takes all of the second, then 1 269 of the first.
    const refunded = Result.getOrThrow(Moves.refund(paidCard, card.receivables, 6_000, null, at(1)))
    expect(refunded).toMatchObject({ _tag: "Refunded", amount: 6_000, waiting: 9_462 })
    // Covered by what waits alone, whatever the available balance; beyond it, only with enough available.
    expect(Moves.covers(refunded, -100)).toBe(true)
    expect(Moves.covers({ amount: Cents.make(9_463), waiting: refunded.waiting }, 0)).toBe(false)
    expect(Moves.covers({ amount: Cents.make(9_463), waiting: refunded.waiting }, 1)).toBe(true)
    if (refunded._tag !== "Refunded") return
    expect(refunded.transition.movements).toEqual(
      Ledger.onTakeBack("refund", "credit_card", Cents.make(6_000), Cents.make(0))
    )
    expect(refunded.transition.receivables).toEqual([
      receivable({
        installment: 2,
        amount: -4_731,
        fee: 0,
        balance: "card",
        status: "waiting_funds",
        paymentDate: "2026-11-23"
      }),
      receivable({
        installment: 1,
        amount: -1_269,
        fee: 0,
        balance: "card",
        status: "waiting_funds",
        paymentDate: "2026-10-21"
      })
    ])
    // The chargeback takes what was not refunded: the 3 462 still waiting, and 538 from the available balance.
    const partly = applied(paidCard, refunded.transition)
    const taken = [...card.receivables, ...refunded.transition.receivables]
    const chargedBack = Result.getOrThrow(Moves.chargeback(partly, taken, at(2)))
    expect(chargedBack).toMatchObject({ status: "chargedback", event: "invoice.chargedback", refundedAmount: 6_000 })
    expect(chargedBack.movements).toEqual(
      Ledger.onTakeBack("chargeback", "credit_card", Cents.make(3_462), Cents.make(538))
    )
    expect(chargedBack.receivables).toEqual([
      receivable({
        installment: 1,
        amount: -3_462,
        fee: 0,
        balance: "card",
        status: "waiting_funds",
        paymentDate: "2026-10-21"
      }),
      receivable({
        installment: 1,
        amount: -538,
        fee: 0,
        balance: "card",
        status: "available",
        paymentDate: "2026-09-21"
      })
    ])
    expect(netOf([...taken, ...chargedBack.receivables])).toBe(-538)
  })
})
