// Refund rules (SPEC 4.4): only paid or partially refunded invoices are refunded, never beyond what is left.
import { Result, Schema } from "effect"
import type { Cents } from "./Cents.js"
import { InvalidTransition, type InvoiceStatus, transition } from "./InvoiceStatus.js"

export class RefundExceedsRemaining extends Schema.TaggedError<RefundExceedsRemaining>()("RefundExceedsRemaining", {
  requested: Schema.Number,
  remaining: Schema.Number
}) {
  override get message() {
    return `amount ${this.requested} is more than what is left to refund (${this.remaining})`
  }
}

export interface RefundPlan {
  readonly amount: Cents
  readonly status: InvoiceStatus
}

/**
 * What a refund of `requested` (everything left when null) does to an invoice. The status is checked before the
 * amount, so a refund of a fully refunded invoice is an invalid transition, not an excess.
 */
export const plan = (
  invoice: { readonly status: InvoiceStatus; readonly amount: Cents; readonly refundedAmount: Cents },
  requested: number | null
): Result.Result<RefundPlan, InvalidTransition | RefundExceedsRemaining> => {
  if (invoice.status !== "paid" && invoice.status !== "partially_refunded") {
    return Result.fail(new InvalidTransition({ from: invoice.status, action: "refund_full" }))
  }
  const remaining = invoice.amount - invoice.refundedAmount
  const amount = requested ?? remaining
  if (amount > remaining) return Result.fail(new RefundExceedsRemaining({ requested: amount, remaining }))
  const status = transition(invoice.status, amount === remaining ? "refund_full" : "refund_partial")
  return Result.map(status, (status) => ({ amount: amount as Cents, status }))
}
