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

/**
 * Each action as the contract names the operation a merchant asked for: a refund is one operation whether it takes
 * part or all of what is left, and a card the acquirer refuses is "refused". A merchant reads these, never the
 * action's own name.
 */
export const operationOf: { readonly [A in InvoiceAction]: string } = {
  pay: "pay",
  refund_partial: "refund",
  refund_full: "refund",
  expire: "expire",
  decline: "refuse",
  chargeback: "charge back"
}

export class InvalidTransition extends Schema.TaggedError<InvalidTransition>()("InvalidTransition", {
  from: InvoiceStatus,
  action: InvoiceAction
}) {
  override get message(): string {
    return `cannot ${operationOf[this.action]} an invoice that is ${this.from}`
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

export type EventType =
  | "invoice.created"
  | `invoice.${Exclude<InvoiceStatus, "pending">}`
  /** A refund was asked of a provider that answers later; the invoice's status waits for its answer. */
  | "invoice.refund_pending"
  /** The provider refused a pending refund; what it held is back in the balance. */
  | "invoice.refund_failed"
  /** A payment arrived that does not pay the invoice (another amount, another charge): it stays as it was. */
  | "invoice.payment_rejected"
  /** The bank registered the invoice's boleto (SPEC 15.1): it can be paid at any bank. */
  | "invoice.boleto_registered"
  /** The bank rejected the invoice's boleto; the invoice expires with it. */
  | "invoice.boleto_rejected"

/** The events recorded without a move: what a refund or a payment came to when the invoice's status stays. */
export const eventsWithoutMove = [
  "invoice.refund_pending",
  "invoice.refund_failed",
  "invoice.payment_rejected",
  "invoice.boleto_registered",
  "invoice.boleto_rejected"
] as const satisfies ReadonlyArray<EventType>

/** The event recorded when an invoice reaches `status` (SPEC 8.1); an invoice is only ever pending when created. */
export const eventType = (status: InvoiceStatus): EventType =>
  status === "pending" ? "invoice.created" : `invoice.${status}`

/** Every event an invoice records: one per status it can reach, and those recorded without a move. */
export const eventTypes: ReadonlyArray<EventType> = [...InvoiceStatus.literals.map(eventType), ...eventsWithoutMove]
