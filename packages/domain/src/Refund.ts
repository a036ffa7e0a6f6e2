// Refund rules (SPEC 4.4): only paid or partially refunded invoices are refunded, never beyond what is left.
import { Result, Schema } from "effect"
import type { Cents } from "./Cents.js"
import type { RefundStatus } from "./Invoice.js"
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

interface Refundable {
  readonly status: InvoiceStatus
  readonly amount: Cents
  readonly refundedAmount: Cents
  readonly refunds: ReadonlyArray<{ readonly amount: Cents; readonly status: RefundStatus }>
}

/** What is held by refunds the provider has not settled yet. */
export const pendingAmount = (invoice: Refundable): number =>
  invoice.refunds.filter((refund) => refund.status === "pending").reduce((sum, refund) => sum + refund.amount, 0)

/**
 * What a refund of `requested` (everything left when null) does to an invoice: refunds still pending count as
 * refunded, so that together they never exceed the amount. The status is checked before the amount, so a refund of
 * a fully refunded invoice is an invalid transition, not an excess. The status is the one the invoice reaches when
 * this refund succeeds, should the pending ones succeed first.
 */
export const plan = (
  invoice: Refundable,
  requested: number | null
): Result.Result<RefundPlan, InvalidTransition | RefundExceedsRemaining> => {
  if (invoice.status !== "paid" && invoice.status !== "partially_refunded") {
    return Result.fail(new InvalidTransition({ from: invoice.status, action: "refund_full" }))
  }
  const remaining = invoice.amount - invoice.refundedAmount - pendingAmount(invoice)
  if (remaining === 0) return Result.fail(new RefundExceedsRemaining({ requested: requested ?? 0, remaining }))
  const amount = requested ?? remaining
  if (amount > remaining) return Result.fail(new RefundExceedsRemaining({ requested: amount, remaining }))
  const status = transition(invoice.status, amount === remaining ? "refund_full" : "refund_partial")
  return Result.map(status, (status) => ({ amount: amount as Cents, status }))
}

/** The status an invoice reaches when a pending refund of `amount` succeeds: refunded once nothing is left. */
export const settledStatus = (
  invoice: Pick<Refundable, "status" | "amount" | "refundedAmount">,
  amount: Cents
): Result.Result<InvoiceStatus, InvalidTransition> =>
  transition(invoice.status, invoice.refundedAmount + amount === invoice.amount ? "refund_full" : "refund_partial")
