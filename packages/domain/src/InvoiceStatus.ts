// The life of an invoice: its statuses, the actions that move it, and the one diagram of SPEC 7.1 that
// decides which moves are allowed.
import { Result, Schema } from "effect"

export const InvoiceStatus = Schema.Literals([
  "pending",
  "paid",
  "partially_refunded",
  "refunded",
  "expired",
  "refused",
  "chargedback"
])
export type InvoiceStatus = typeof InvoiceStatus.Type

export const InvoiceAction = Schema.Literals([
  "pay",
  "refund_partial",
  "refund_full",
  "expire",
  "decline",
  "chargeback"
])
export type InvoiceAction = typeof InvoiceAction.Type

export class InvalidTransition extends Schema.TaggedError<InvalidTransition>()("InvalidTransition", {
  from: InvoiceStatus,
  action: InvoiceAction
}) {
  override get message(): string {
    return `cannot ${this.action} an invoice that is ${this.from}`
  }
}

// A further partial refund keeps `partially_refunded`, but it is still a move: it is recorded like any other.
const moves: { readonly [S in InvoiceStatus]: { readonly [A in InvoiceAction]?: InvoiceStatus } } = {
  pending: { pay: "paid", expire: "expired", decline: "refused" },
  paid: { refund_partial: "partially_refunded", refund_full: "refunded", chargeback: "chargedback" },
  partially_refunded: { refund_partial: "partially_refunded", refund_full: "refunded", chargeback: "chargedback" },
  refunded: {},
  expired: {},
  refused: {},
  chargedback: {}
}

export const transition = (
  from: InvoiceStatus,
  action: InvoiceAction
): Result.Result<InvoiceStatus, InvalidTransition> => {
  const to = moves[from][action]
  return to === undefined ? Result.fail(new InvalidTransition({ from, action })) : Result.succeed(to)
}

/** A final status is one that no action leaves. */
export const isFinal = (status: InvoiceStatus): boolean => Object.keys(moves[status]).length === 0

export type EventType = "invoice.created" | `invoice.${Exclude<InvoiceStatus, "pending">}`

/** The event recorded when an invoice reaches `status` (SPEC 8.1); an invoice is only ever pending when created. */
export const eventType = (status: InvoiceStatus): EventType =>
  status === "pending" ? "invoice.created" : `invoice.${status}`
