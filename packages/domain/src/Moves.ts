// The moves of an invoice after its creation (SPEC 7.1, 7.4), one pure function per action: each reads the invoice as
// it is and returns what the action makes of it — the transition (its status, the event it records, its timestamps,
// its refunded total) with the ledger entries it writes — or the refusal of the diagram or of the action's own rule.
// Nothing else builds a move: the application writes what these return.
import { Result, Schema } from "effect"
import type { CalendarDate } from "./BusinessCalendar.js"
import { type Cents, formatBRL } from "./Cents.js"
import type { FeePlan } from "./FeePlan.js"
import type { Invoice } from "./Invoice.js"
import { type EventType, eventType, type InvalidTransition, type InvoiceStatus, transition } from "./InvoiceStatus.js"
import type * as Ledger from "./Ledger.js"
import { PaymentMethod } from "./PaymentMethod.js"
import * as Receivable from "./Receivable.js"
import * as Refund from "./Refund.js"
import type { Timestamp } from "./Timestamp.js"

/** A move of an invoice to a new status, with what it writes besides the status (SPEC 7.1, 7.4). */
export interface Transition {
  readonly status: InvoiceStatus
  readonly event: string
  readonly at: Timestamp
  readonly paidAt: Timestamp | null
  readonly refundedAmount: Cents
  readonly movements: ReadonlyArray<Ledger.Entry>
  /** The receivables it writes: a payment's schedule, or what a refund or chargeback takes back (SPEC 13.1). */
  readonly receivables: ReadonlyArray<Receivable.NewReceivable>
  /** A refund that succeeds with this move. */
  readonly refund: { readonly amount: Cents; readonly reason: string | null } | null
  /** The provider's pix that pays a pix invoice with this move. */
  readonly pixEndToEndId?: string | undefined
  /** What the move's name alone does not say, kept in its timeline entry and given as its event's reason. */
  readonly detail?: string | undefined
}

/** A card invoice is paid by its card's charge (`settleCardCharge`), never otherwise. */
export class PaidByCardOnly extends Schema.TaggedError<PaidByCardOnly>()("PaidByCardOnly", {}) {
  override get message(): string {
    return "a credit_card invoice is paid by its card's charge alone"
  }
}

/** Only card payments are charged back. */
export class NotChargeable extends Schema.TaggedError<NotChargeable>()("NotChargeable", { method: PaymentMethod }) {
  override get message(): string {
    return `cannot charge back a ${this.method} invoice: only card payments are charged back`
  }
}

/** A payment of another amount than the invoice's pays nothing. */
export class PaymentMismatch extends Schema.TaggedError<PaymentMismatch>()("PaymentMismatch", {
  received: Schema.Number,
  amount: Schema.Number
}) {
  override get message(): string {
    return `a payment of ${formatBRL(this.received as Cents)} arrived for an invoice of ${formatBRL(this.amount as Cents)}`
  }
}

/** The invoice as a move reads it. */
export type Movable = Pick<
  Invoice,
  "status" | "method" | "amount" | "refundedAmount" | "paidAt" | "fee" | "pix" | "refunds"
>

const unchanged = (invoice: Pick<Movable, "paidAt" | "refundedAmount">, status: InvoiceStatus, at: Timestamp) =>
  ({
    status,
    event: eventType(status),
    at,
    paidAt: invoice.paidAt,
    refundedAmount: invoice.refundedAmount,
    movements: [],
    receivables: [],
    refund: null
  }) satisfies Transition

/**
 * Pays a pending invoice that is not a card's: the amount comes in and the fee goes out, scheduled as receivables by
 * `plan`'s settlement days. A provider's pix (`received`) pays it only with the invoice's own amount, and is kept as
 * what paid it; a hybrid boleto paid by its pix says so in the move's detail.
 */
export const pay = (
  invoice: Pick<Movable, "status" | "method" | "amount" | "refundedAmount" | "paidAt" | "fee">,
  at: Timestamp,
  plan: Pick<FeePlan, "settlementDays">,
  received?: { readonly endToEndId: string; readonly amount: number }
): Result.Result<Transition, PaidByCardOnly | InvalidTransition | PaymentMismatch> => {
  if (invoice.method === "credit_card") return Result.fail(new PaidByCardOnly())
  return Result.flatMap(transition(invoice.status, "pay"), (status) => {
    if (received !== undefined && received.amount !== invoice.amount) {
      return Result.fail(new PaymentMismatch({ received: received.amount, amount: invoice.amount }))
    }
    return Result.succeed({
      ...unchanged(invoice, status, at),
      paidAt: at,
      ...Receivable.schedule(plan, {
        method: invoice.method,
        installments: 1,
        amount: invoice.amount,
        fee: invoice.fee.estimatedFee as Cents,
        paidAt: at
      }),
      ...(received === undefined ? {} : { pixEndToEndId: received.endToEndId }),
      ...(received !== undefined && invoice.method === "bank_slip"
        ? { detail: `paid by pix (end-to-end id ${received.endToEndId}), not at the bank` }
        : {})
    })
  })
}

/**
 * A boleto paid at the bank (SPEC 15.1): it pays its invoice as any payment does, whatever the payer paid — a bank
 * takes what it is given for a registered boleto. The ledger and the receivables hold what the bank received, less
 * the invoice's fee, available on the day the bank credits it (`creditedOn`, when it says; else the plan's), and a
 * payment of another amount is said in the move's detail.
 */
export const payAtBank = (
  invoice: Pick<Movable, "status" | "method" | "amount" | "refundedAmount" | "paidAt" | "fee">,
  at: Timestamp,
  plan: Pick<FeePlan, "settlementDays">,
  paid: { readonly amount: Cents; readonly creditedOn: CalendarDate | null }
): Result.Result<Transition, PaidByCardOnly | InvalidTransition | PaymentMismatch> =>
  Result.map(pay(invoice, at, plan), (transition) => ({
    ...transition,
    ...Receivable.schedule(plan, {
      method: invoice.method,
      installments: 1,
      amount: paid.amount,
      fee: invoice.fee.estimatedFee as Cents,
      paidAt: at,
      creditedOn: paid.creditedOn ?? undefined
    }),
    ...(paid.amount === invoice.amount
      ? {}
      : { detail: `paid at the bank: ${formatBRL(paid.amount)} for a boleto of ${formatBRL(invoice.amount as Cents)}` })
  }))

/**
 * What a refund of `requested` (everything left when null) makes of a paid invoice (Refund.plan), taken back from its
 * `receivables` (Receivable.takeBack); `waiting` is what those waited for, which with the available balance must cover
 * the refund (`covers`). A card's or a
 * sandbox-paid pix's refund succeeds at once; the refund of a provider's pix is a return of that pix (`Held`), asked of
 * the provider, whose debit is written now so that its amount is held until the provider says how it ended
 * (`settleReturn`).
 */
export type RefundMove =
  | {
      readonly _tag: "Refunded"
      readonly amount: Cents
      readonly waiting: Cents
      readonly transition: Transition
    }
  | {
      readonly _tag: "Held"
      readonly amount: Cents
      readonly waiting: Cents
      readonly reason: string | null
      /** The pix it returns part of. */
      readonly endToEndId: string
      readonly event: EventType
      readonly movements: ReadonlyArray<Ledger.Entry>
      readonly receivables: ReadonlyArray<Receivable.NewReceivable>
    }

export const refund = (
  invoice: Pick<Movable, "status" | "method" | "amount" | "refundedAmount" | "paidAt" | "pix" | "refunds">,
  receivables: ReadonlyArray<Receivable.NewReceivable>,
  requested: number | null,
  reason: string | null,
  at: Timestamp
): Result.Result<RefundMove, InvalidTransition | Refund.RefundExceedsRemaining> =>
  Result.map(Refund.plan(invoice, requested), (plan): RefundMove => {
    const taken = Receivable.takeBack("refund", invoice.method, receivables, plan.amount, at)
    const endToEndId = invoice.pix?.endToEndId ?? null
    if (endToEndId !== null) {
      return {
        _tag: "Held",
        amount: plan.amount,
        waiting: taken.waiting,
        reason,
        endToEndId,
        event: "invoice.refund_pending",
        movements: taken.movements,
        receivables: taken.receivables
      }
    }
    return {
      _tag: "Refunded",
      amount: plan.amount,
      waiting: taken.waiting,
      transition: {
        ...unchanged(invoice, plan.status, at),
        refundedAmount: (invoice.refundedAmount + plan.amount) as Cents,
        movements: taken.movements,
        receivables: taken.receivables,
        refund: { amount: plan.amount, reason }
      }
    }
  })

/** Expires a pending invoice: nothing was paid, so nothing is written to the ledger. */
export const expire = (
  invoice: Pick<Movable, "status" | "paidAt" | "refundedAmount">,
  at: Timestamp
): Result.Result<Transition, InvalidTransition> =>
  Result.map(transition(invoice.status, "expire"), (status) => unchanged(invoice, status, at))

/**
 * Charges a card payment back: what was not refunded yet is taken back from its `receivables` (Receivable.takeBack),
 * whatever the available balance is left with.
 */
/**
 * Whether the invoice's waiting receivables and the `available` balance of its method together cover a refund
 * (SPEC 7.4); what the refund may draw on is their sum, which a chargeback may have taken below zero.
 */
export const covers = (refund: Pick<RefundMove, "amount" | "waiting">, available: number): boolean =>
  refund.waiting + available >= refund.amount

export const chargeback = (
  invoice: Pick<Movable, "status" | "method" | "amount" | "refundedAmount" | "paidAt">,
  receivables: ReadonlyArray<Receivable.NewReceivable>,
  at: Timestamp
): Result.Result<Transition, NotChargeable | InvalidTransition> => {
  if (invoice.method !== "credit_card") return Result.fail(new NotChargeable({ method: invoice.method }))
  return Result.map(transition(invoice.status, "chargeback"), (status) => {
    const taken = Receivable.takeBack(
      "chargeback",
      invoice.method,
      receivables,
      (invoice.amount - invoice.refundedAmount) as Cents,
      at
    )
    return { ...unchanged(invoice, status, at), movements: taken.movements, receivables: taken.receivables }
  })
}

/** What a card charge's answer makes of its pending invoice: paid, with the charge's fee, or refused for a reason. */
export interface CardSettlement {
  readonly status: "paid" | "refused"
  readonly event: EventType
  readonly at: Timestamp
  readonly paidAt: Timestamp | null
  readonly refusedReason: string | null
  readonly movements: ReadonlyArray<Ledger.Entry>
  readonly receivables: ReadonlyArray<Receivable.NewReceivable>
}

/**
 * Settles a pending card invoice with its charge's answer: approved (`refusedReason` null) with the fee and the
 * installments the charge fixed, scheduled by `plan`'s settlement days, or refused. A charge answered once its
 * invoice was no longer pending is refused by the diagram: it is late, and pays nothing.
 */
export const settleCardCharge = (
  invoice: Pick<Movable, "status" | "method" | "amount">,
  charge: { readonly fee: { readonly estimatedFee: number }; readonly installments: number },
  refusedReason: string | null,
  at: Timestamp,
  plan: Pick<FeePlan, "settlementDays">
): Result.Result<CardSettlement, InvalidTransition> =>
  Result.map(transition(invoice.status, refusedReason === null ? "pay" : "decline"), (status) => {
    const settled = status === "paid" ? "paid" : "refused"
    const scheduled =
      settled === "paid"
        ? Receivable.schedule(plan, {
            method: invoice.method,
            installments: charge.installments,
            amount: invoice.amount,
            fee: charge.fee.estimatedFee as Cents,
            paidAt: at
          })
        : { receivables: [], movements: [] }
    return {
      status: settled,
      event: eventType(settled),
      at,
      paidAt: settled === "paid" ? at : null,
      refusedReason,
      ...scheduled
    }
  })

/**
 * How a return (a refund held for a provider, `refund`'s `Held`) ended: `Returned`, the invoice moves as the refund
 * succeeds — refunded once nothing is left — its debit written when it was asked for; `Refused`, the invoice stays as
 * it was and what the return held is given back (Receivable.giveBack, over the invoice's `receivables`).
 */
export type ReturnSettlement =
  | { readonly _tag: "Returned"; readonly transition: Transition }
  | {
      readonly _tag: "Refused"
      /** Why the provider refused it. */
      readonly reason: string
      readonly event: EventType
      readonly movements: ReadonlyArray<Ledger.Entry>
      readonly receivables: ReadonlyArray<Receivable.NewReceivable>
    }

export const settleReturn = (
  invoice: Pick<Movable, "status" | "method" | "amount" | "refundedAmount" | "paidAt">,
  receivables: ReadonlyArray<Receivable.NewReceivable>,
  held: Cents,
  outcome: { readonly _tag: "Returned" } | { readonly _tag: "Refused"; readonly reason: string },
  at: Timestamp
): Result.Result<ReturnSettlement, InvalidTransition> => {
  if (outcome._tag === "Refused") {
    return Result.succeed({
      _tag: "Refused",
      reason: outcome.reason,
      event: "invoice.refund_failed",
      ...Receivable.giveBack(invoice.method, receivables, held, at)
    })
  }
  return Result.map(
    Refund.settledStatus(invoice, held),
    (status): ReturnSettlement => ({
      _tag: "Returned",
      transition: { ...unchanged(invoice, status, at), refundedAmount: (invoice.refundedAmount + held) as Cents }
    })
  )
}
