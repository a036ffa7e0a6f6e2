// For any sequence of moves of an invoice, a model of what the use cases store after each (invoice, ledger,
// receivables) keeps its money adding up: refunded ≤ amount, and the ledger's buckets equal to its receivables.
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import {
  BusinessCalendar,
  FeePlan,
  type Invoice,
  Ledger,
  Moves,
  PaymentMethod,
  Receivable,
  Refund,
  Timestamp
} from "../src/index.js"
import { applied, pendingInvoice, type State, start } from "./support/Invoices.js"
import { netOf, sum, waitingOf } from "./support/Receivables.js"

const plan = FeePlan.defaultFeePlan
const secondsPerDay = 86_400

type Action =
  | { readonly _tag: "pay" }
  | { readonly _tag: "payByPix"; readonly amountOff: number }
  /** A refund of thousandths of the amount (past 1000, more than it), or of everything left. */
  | { readonly _tag: "refund"; readonly thousandths: number | null }
  | { readonly _tag: "expire" }
  | { readonly _tag: "chargeback" }
  | { readonly _tag: "cardCharge"; readonly approved: boolean; readonly installments: number }
  | {
      readonly _tag: "settleReturn"
      readonly which: number
      readonly outcome: { readonly _tag: "Returned" } | { readonly _tag: "Refused"; readonly reason: string }
    }
  /** Days go by, and the sweep makes the receivables due by then available. */
  | { readonly _tag: "wait"; readonly days: number }
  /** The sandbox's release: the invoice's waiting receivables made available today. */
  | { readonly _tag: "release" }
  /** The payment of the invoice as its method is paid: a pix (the sandbox's or a provider's), a boleto, a card. */
  | { readonly _tag: "open"; readonly viaProvider: boolean; readonly installments: number }

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
  {
    arbitrary: fc.record({
      _tag: fc.constant("cardCharge" as const),
      approved: fc.boolean(),
      installments: fc.integer({ min: 1, max: 12 })
    }),
    weight: 3
  },
  {
    arbitrary: fc.record({
      _tag: fc.constant("settleReturn" as const),
      which: fc.nat(4),
      outcome: fc.constantFrom({ _tag: "Returned" } as const, { _tag: "Refused", reason: "no" } as const)
    }),
    weight: 3
  },
  { arbitrary: fc.record({ _tag: fc.constant("wait" as const), days: fc.integer({ min: 0, max: 45 }) }), weight: 3 },
  { arbitrary: fc.constant({ _tag: "release" } as const), weight: 1 }
)

// Most runs open by paying their invoice as its method is paid, so that what follows has money to move.
const actions: fc.Arbitrary<ReadonlyArray<Action>> = fc
  .tuple(
    fc.oneof(
      {
        arbitrary: fc.record({
          _tag: fc.constant("open" as const),
          viaProvider: fc.boolean(),
          installments: fc.integer({ min: 1, max: 12 })
        }),
        weight: 4
      },
      { arbitrary: action, weight: 1 }
    ),
    fc.array(action, { maxLength: 20 })
  )
  .map(([first, rest]) => [first, ...rest])

interface Run {
  readonly invoice: State
  readonly ledger: ReadonlyArray<Ledger.Entry>
  /** The invoice's receivables as stored: each move's appended, settled ones made available. */
  readonly receivables: ReadonlyArray<Receivable.Receivable>
  /** What the invoice was charged, when its card's charge or a payment paid it. */
  readonly feeCharged: number
  /** The company's available balance from its other invoices, which a refund may need (SPEC 7.4). */
  readonly elsewhere: number
  readonly now: Timestamp.Timestamp
}

const stored = (
  receivables: ReadonlyArray<Receivable.Receivable>,
  added: ReadonlyArray<Receivable.NewReceivable>
): ReadonlyArray<Receivable.Receivable> => [
  ...receivables,
  ...added.map((receivable, index) => ({ ...receivable, id: receivables.length + index + 1 }))
]

/** Makes the receivables `which` picks available today, as the sweep or the sandbox's release does. */
const settled = (run: Run, which: (receivable: Receivable.Receivable) => boolean): Run => {
  const today = BusinessCalendar.saoPauloDate(run.now)
  const settlements = run.receivables.filter(which).map((receivable) => Receivable.settle(receivable, today))
  const byId = new Map(settlements.map((settlement) => [settlement.receivable.id, settlement]))
  return {
    ...run,
    receivables: run.receivables.map((receivable) => {
      const settlement = byId.get(receivable.id)
      return settlement === undefined
        ? receivable
        : { ...receivable, status: "available" as const, paymentDate: settlement.paymentDate }
    }),
    ledger: [...run.ledger, ...settlements.flatMap((settlement) => settlement.movements)]
  }
}

const availableOf = (run: Run) =>
  Ledger.balanceOf(run.ledger, PaymentMethod.balanceKindOf(run.invoice.method), "available")

const paymentOf = (
  method: PaymentMethod.PaymentMethod,
  { installments, viaProvider }: { readonly installments: number; readonly viaProvider: boolean }
): Action => {
  if (method === "credit_card") return { _tag: "cardCharge", approved: true, installments }
  return method === "pix" && viaProvider ? { _tag: "payByPix", amountOff: 0 } : { _tag: "pay" }
}

/** Applies one action to a run, one second after the last unless it waits; a refused action changes nothing else. */
const step = (before: Run, next: Action): Run => {
  const now = Timestamp.plusSeconds(before.now, next._tag === "wait" ? next.days * secondsPerDay : 1)
  const run: Run = { ...before, now }
  const { invoice, ledger, receivables } = run
  const moved = (transition: Moves.Transition, feeCharged = run.feeCharged): Run => ({
    ...run,
    invoice: applied(invoice, transition),
    ledger: [...ledger, ...transition.movements],
    receivables: stored(receivables, transition.receivables),
    feeCharged
  })
  switch (next._tag) {
    case "pay": {
      const paid = Moves.pay(invoice, now, plan)
      return Result.isSuccess(paid) ? moved(paid.success, invoice.fee.estimatedFee) : run
    }
    case "payByPix": {
      const received = { endToEndId: `E${now}`, amount: invoice.amount + next.amountOff }
      const paid = Moves.pay(invoice, now, plan, received)
      return Result.isSuccess(paid) ? moved(paid.success, invoice.fee.estimatedFee) : run
    }
    case "refund": {
      const requested = next.thousandths === null ? null : Math.ceil((invoice.amount * next.thousandths) / 1_000)
      const refunded = Moves.refund(invoice, receivables, requested, null, now)
      if (Result.isFailure(refunded)) return run
      const move = refunded.success
      // The invoice's waiting receivables and the available balance must cover it together (else 422).
      const waiting = sum(
        [...new Set(receivables.map((receivable) => receivable.installment))].map((installment) =>
          Math.max(0, waitingOf(receivables, installment))
        ),
        (value) => value
      )
      expect(move.waiting).toBe(waiting)
      if (waiting + run.elsewhere + availableOf(run) < move.amount) return run
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
        ledger: [...ledger, ...move.movements],
        receivables: stored(receivables, move.receivables)
      }
    }
    case "expire": {
      const expired = Moves.expire(invoice, now)
      return Result.isSuccess(expired) ? moved(expired.success) : run
    }
    case "chargeback": {
      const chargedBack = Moves.chargeback(invoice, receivables, now)
      return Result.isSuccess(chargedBack) ? moved(chargedBack.success) : run
    }
    case "cardCharge": {
      if (invoice.method !== "credit_card") return run
      const fee = FeePlan.split(plan, "credit_card", next.installments, invoice.amount)
      const charge = { fee, installments: next.installments }
      const answered = Moves.settleCardCharge(invoice, charge, next.approved ? null : "card_declined", now, plan)
      if (Result.isFailure(answered)) return run
      const settlement = answered.success
      return {
        ...run,
        invoice: { ...invoice, status: settlement.status, paidAt: settlement.paidAt },
        ledger: [...ledger, ...settlement.movements],
        receivables: stored(receivables, settlement.receivables),
        feeCharged: settlement.status === "paid" ? fee.estimatedFee : run.feeCharged
      }
    }
    case "settleReturn": {
      const pending = invoice.refunds.filter((refund) => refund.status === "pending")
      const held = pending[next.which % Math.max(pending.length, 1)]
      if (held === undefined) return run
      const returned = Moves.settleReturn(invoice, receivables, held.amount, next.outcome, now)
      // A pending refund holds part of a paid or partially refunded invoice that nothing else moves.
      expect(Result.isSuccess(returned)).toBe(true)
      if (Result.isFailure(returned)) return run
      const closed = (status: Invoice.RefundStatus) =>
        invoice.refunds.map((refund) => (refund === held ? { ...refund, status } : refund))
      const settlement = returned.success
      if (settlement._tag === "Refused") {
        return {
          ...run,
          invoice: { ...invoice, refunds: closed("failed") },
          ledger: [...ledger, ...settlement.movements],
          receivables: stored(receivables, settlement.receivables)
        }
      }
      const after = moved(settlement.transition)
      return { ...after, invoice: { ...after.invoice, refunds: closed("succeeded") } }
    }
    case "wait": {
      const today = BusinessCalendar.saoPauloDate(now)
      return settled(run, (receivable) => Receivable.isDue(receivable, today))
    }
    case "release":
      return settled(run, (receivable) => receivable.status === "waiting_funds")
    case "open":
      return step(before, paymentOf(invoice.method, next))
  }
}

/** The payment's own receivables: it writes the first ones, numbered by installment from 1. */
const scheduleOf = (receivables: ReadonlyArray<Receivable.Receivable>) => {
  const count = receivables.findIndex((receivable, index) => receivable.installment !== index + 1)
  return count === -1 ? receivables : receivables.slice(0, count)
}

describe("Moves", () => {
  it("for any sequence of actions: refunded ≤ amount, and available + waiting = Σ receivables = paid − fee − refunded − charged back", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PaymentMethod.PaymentMethod.literals),
        fc.integer({ min: 100, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        actions,
        (method, amount, elsewhere, moves) => {
          let run: Run = {
            invoice: pendingInvoice(method, amount),
            ledger: [],
            receivables: [],
            feeCharged: 0,
            elsewhere,
            now: start
          }
          for (const next of moves) {
            run = step(run, next)
            const { invoice, receivables, ledger } = run
            const held = Refund.pendingAmount(invoice)
            expect(invoice.refundedAmount + held).toBeLessThanOrEqual(invoice.amount)
            const paid = invoice.paidAt === null ? 0 : invoice.amount
            const fee = invoice.paidAt === null ? 0 : run.feeCharged
            const chargedBack = invoice.status === "chargedback" ? invoice.amount - invoice.refundedAmount : 0
            const left = paid - fee - (invoice.refundedAmount + held) - chargedBack
            const kind = PaymentMethod.balanceKindOf(method)
            const available = Ledger.balanceOf(ledger, kind, "available")
            const waiting = Ledger.balanceOf(ledger, kind, "waiting")
            expect(available + waiting).toBe(left)
            expect(netOf(receivables)).toBe(left)
            // Each bucket holds what its receivables add up to.
            expect(waiting).toBe(netOf(receivables.filter((receivable) => receivable.status === "waiting_funds")))
            expect(ledger.every((entry) => entry.balance === kind && entry.amount >= 0)).toBe(true)
            expect(ledger.every((entry) => Number.isSafeInteger(entry.amount))).toBe(true)
            expect(receivables.every((receivable) => receivable.balance === kind)).toBe(true)
            // Once the sweep has run, nothing waits for a day that has come.
            const today = BusinessCalendar.saoPauloDate(run.now)
            if (next._tag === "wait") expect(receivables.some((r) => Receivable.isDue(r, today))).toBe(false)
            // Nothing takes from an installment more than it waits for.
            for (const scheduled of scheduleOf(receivables)) {
              expect(waitingOf(receivables, scheduled.installment)).toBeGreaterThanOrEqual(
                Math.min(0, scheduled.netAmount)
              )
            }
          }
        }
      ),
      { numRuns: propertyRuns(300) }
    )
  })
})
