// The moves of an invoice after its creation (SPEC 7.1, 7.4), one pure function per action: each reads the invoice as
// it is and returns what the action makes of it — the transition (its status, the event it records, its timestamps,
// its refunded total) with the ledger entries it writes — or the refusal of the diagram or of the action's own rule.
// Nothing else builds a move: the application writes what these return.
import { Result, Schema } from "effect"
import { type Cents, formatBRL } from "./Cents.js"
import type { Invoice } from "./Invoice.js"
import { type EventType, eventType, type InvalidTransition, type InvoiceStatus, transition } from "./InvoiceStatus.js"
import * as Ledger from "./Ledger.js"
import { PaymentMethod } from "./PaymentMethod.js"
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
  /** A refund that succeeds with this move. */
  readonly refund: { readonly amount: Cents; readonly reason: string | null } | null
  /** The provider's pix that pays a pix invoice with this move. */
  readonly pixEndToEndId?: string | undefined
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
    refund: null
  }) satisfies Transition

/**
 * Pays a pending invoice that is not a card's: the amount comes in and the fee goes out. A provider's pix
 * (`received`) pays it only with the invoice's own amount, and is kept as what paid it.
 */
export const pay = (
  invoice: Pick<Movable, "status" | "method" | "amount" | "refundedAmount" | "paidAt" | "fee">,
  at: Timestamp,
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
      movements: Ledger.onPaid(invoice.method, invoice.amount, invoice.fee.estimatedFee as Cents),
      ...(received === undefined ? {} : { pixEndToEndId: received.endToEndId })
    })
  })
}

/**
 * What a refund of `requested` (everything left when null) makes of a paid invoice (Refund.plan). A card's or a
 * sandbox-paid pix's refund succeeds at once; the refund of a provider's pix is a return of that pix (`Held`), asked of
 * the provider, whose debit is written now so that its amount is held until the provider says how it ended
 * (`settleReturn`).
 */
export type RefundMove =
  | { readonly _tag: "Refunded"; readonly amount: Cents; readonly transition: Transition }
  | {
      readonly _tag: "Held"
      readonly amount: Cents
      readonly reason: string | null
      /** The pix it returns part of. */
      readonly endToEndId: string
      readonly event: EventType
      readonly movements: ReadonlyArray<Ledger.Entry>
    }

export const refund = (
  invoice: Pick<Movable, "status" | "method" | "amount" | "refundedAmount" | "paidAt" | "pix" | "refunds">,
  requested: number | null,
  reason: string | null,
  at: Timestamp
): Result.Result<RefundMove, InvalidTransition | Refund.RefundExceedsRemaining> =>
  Result.map(Refund.plan(invoice, requested), (plan): RefundMove => {
    const movements = Ledger.onRefund(invoice.method, plan.amount)
    const endToEndId = invoice.pix?.endToEndId ?? null
    if (endToEndId !== null) {
      return { _tag: "Held", amount: plan.amount, reason, endToEndId, event: "invoice.refund_pending", movements }
    }
    return {
      _tag: "Refunded",
      amount: plan.amount,
      transition: {
        ...unchanged(invoice, plan.status, at),
        refundedAmount: (invoice.refundedAmount + plan.amount) as Cents,
        movements,
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

/** Charges a card payment back: what was not refunded yet is taken back, whatever the balance is left with. */
export const chargeback = (
  invoice: Pick<Movable, "status" | "method" | "amount" | "refundedAmount" | "paidAt">,
  at: Timestamp
): Result.Result<Transition, NotChargeable | InvalidTransition> => {
  if (invoice.method !== "credit_card") return Result.fail(new NotChargeable({ method: invoice.method }))
  return Result.map(transition(invoice.status, "chargeback"), (status) => ({
    ...unchanged(invoice, status, at),
    movements: Ledger.onChargeback(invoice.method, (invoice.amount - invoice.refundedAmount) as Cents)
  }))
}

/** What a card charge's answer makes of its pending invoice: paid, with the charge's fee, or refused for a reason. */
export interface CardSettlement {
  readonly status: "paid" | "refused"
  readonly event: EventType
  readonly at: Timestamp
  readonly paidAt: Timestamp | null
  readonly refusedReason: string | null
  readonly movements: ReadonlyArray<Ledger.Entry>
}

/**
 * Settles a pending card invoice with its charge's answer: approved (`refusedReason` null) with the fee the charge
 * fixed, or refused. A charge answered once its invoice was no longer pending is refused by the diagram: it is late,
 * and pays nothing.
 */
export const settleCardCharge = (
  invoice: Pick<Movable, "status" | "method" | "amount">,
  fee: Cents,
  refusedReason: string | null,
  at: Timestamp
): Result.Result<CardSettlement, InvalidTransition> =>
  Result.map(transition(invoice.status, refusedReason === null ? "pay" : "decline"), (status) => {
    const settled = status === "paid" ? "paid" : "refused"
    return {
      status: settled,
      event: eventType(settled),
      at,
      paidAt: settled === "paid" ? at : null,
      refusedReason,
      movements: settled === "paid" ? Ledger.onPaid(invoice.method, invoice.amount, fee) : []
    }
  })

/**
 * How a return (a refund held for a provider, `refund`'s `Held`) ended: `Returned`, the invoice moves as the refund
 * succeeds — refunded once nothing is left — its debit written when it was asked for; `Refused`, the invoice stays as
 * it was and what the return held is given back to the balance.
 */
export type ReturnSettlement =
  | { readonly _tag: "Returned"; readonly transition: Transition }
  | {
      readonly _tag: "Refused"
      /** Why the provider refused it. */
      readonly reason: string
      readonly event: EventType
      readonly movements: ReadonlyArray<Ledger.Entry>
    }

export const settleReturn = (
  invoice: Pick<Movable, "status" | "method" | "amount" | "refundedAmount" | "paidAt">,
  held: Cents,
  outcome: { readonly _tag: "Returned" } | { readonly _tag: "Refused"; readonly reason: string },
  at: Timestamp
): Result.Result<ReturnSettlement, InvalidTransition> => {
  if (outcome._tag === "Refused") {
    return Result.succeed({
      _tag: "Refused",
      reason: outcome.reason,
      event: "invoice.refund_failed",
      movements: Ledger.onRefundRefused(invoice.method, held)
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
