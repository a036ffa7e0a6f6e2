// Webhook endpoints (SPEC 13.5): the events a company subscribes a URL to, and which subscriptions an event reaches.
// A pattern is `*` (every event), a family (`invoice.*`) or one event type.
import { Schema } from "effect"
import type * as InvoiceStatus from "./InvoiceStatus.js"
import type * as Withdrawal from "./Withdrawal.js"

/** The families of events, each the part of an event's type before its dot. */
export const families = ["invoice", "withdrawal"] as const

/**
 * Written out, so that the type names each pattern; a test holds the list to every event an invoice and a withdrawal
 * record.
 */
export const EventPattern = Schema.Literals([
  "*",
  "invoice.*",
  "invoice.created",
  "invoice.paid",
  "invoice.partially_refunded",
  "invoice.refunded",
  "invoice.expired",
  "invoice.refused",
  "invoice.chargedback",
  "invoice.refund_pending",
  "invoice.refund_failed",
  "invoice.payment_rejected",
  "invoice.boleto_registered",
  "invoice.boleto_rejected",
  "withdrawal.*",
  "withdrawal.created",
  "withdrawal.processing",
  "withdrawal.paid",
  "withdrawal.failed",
  "withdrawal.canceled"
] as const satisfies ReadonlyArray<
  "*" | `${(typeof families)[number]}.*` | InvoiceStatus.EventType | Withdrawal.EventType
>).annotate({
  description: "`*` for every event, `invoice.*` or `withdrawal.*` for every event of a family, or one event type."
})
export type EventPattern = typeof EventPattern.Type

/** How many endpoints a company may have in each mode. */
export const maxPerCompanyAndMode = 10

const familyOf = (type: string) => type.slice(0, type.indexOf("."))

/** Whether an endpoint subscribed with `pattern` receives the events of `type`. */
export const matches = (pattern: EventPattern, type: string): boolean =>
  pattern === "*" || pattern === type || pattern === `${familyOf(type)}.*`

/**
 * Every pattern that matches `type`: an endpoint receives the event when it subscribes to any of them. Storage finds
 * the subscriptions of an event by these, so the rule of `matches` is written here once.
 */
export const patternsMatching = (type: string): readonly [string, string, string] => ["*", `${familyOf(type)}.*`, type]

/** The patterns as an endpoint keeps them: each once, in the order first given. */
export const subscribed = (patterns: ReadonlyArray<EventPattern>): ReadonlyArray<EventPattern> => [...new Set(patterns)]
