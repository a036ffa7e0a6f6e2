import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { InvoiceStatus, WebhookEndpoint, Withdrawal } from "../src/index.js"

const patterns = WebhookEndpoint.EventPattern.literals

describe("WebhookEndpoint", () => {
  it("matches every event with *, a family's events with its .*, and one type with itself", () => {
    expect(WebhookEndpoint.matches("*", "invoice.paid")).toBe(true)
    expect(WebhookEndpoint.matches("invoice.*", "invoice.refund_failed")).toBe(true)
    expect(WebhookEndpoint.matches("invoice.paid", "invoice.paid")).toBe(true)
    expect(WebhookEndpoint.matches("invoice.paid", "invoice.refunded")).toBe(false)
    expect(WebhookEndpoint.matches("invoice.*", "withdrawal.paid")).toBe(false)
    expect(WebhookEndpoint.matches("withdrawal.*", "withdrawal.paid")).toBe(true)
    expect(WebhookEndpoint.matches("withdrawal.*", "invoice.paid")).toBe(false)
    // A family is matched whole, never as a prefix of another one.
    expect(WebhookEndpoint.matches("invoice.*", "invoices.paid")).toBe(false)
  })

  it("gives, for every event type, exactly the patterns that match it", () => {
    // Both sets are finite: every pattern against every type, and against types of a family yet unknown.
    for (const type of [
      ...InvoiceStatus.eventTypes,
      ...Withdrawal.eventTypes,
      "anticipation.created",
      "invoices.paid"
    ]) {
      const matching = WebhookEndpoint.patternsMatching(type)
      for (const pattern of patterns) {
        expect(matching.includes(pattern), `${pattern} for ${type}`).toBe(WebhookEndpoint.matches(pattern, type))
      }
    }
  })

  it("takes *, each family's .* and every event an invoice or a withdrawal records as patterns, and nothing else", () => {
    expect([...patterns].sort()).toEqual(
      [
        "*",
        ...WebhookEndpoint.families.map((family) => `${family}.*`),
        ...InvoiceStatus.eventTypes,
        ...Withdrawal.eventTypes
      ].sort()
    )
    const decode = Schema.decodeUnknownExit(WebhookEndpoint.EventPattern)
    expect(decode("invoice.paid")._tag).toBe("Success")
    for (const refused of ["invoice.", "invoice.unknown", "**", "invoice*", "", "INVOICE.PAID"]) {
      expect(decode(refused)._tag, refused).toBe("Failure")
    }
  })

  it("lists every event type an invoice records once: one per status and those without a move", () => {
    expect(InvoiceStatus.eventTypes).toEqual([
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
      "invoice.boleto_rejected"
    ])
  })

  it("keeps each subscribed pattern once, in the order first given", () => {
    expect(WebhookEndpoint.subscribed(["invoice.paid", "*", "invoice.paid", "invoice.*", "*"])).toEqual([
      "invoice.paid",
      "*",
      "invoice.*"
    ])
  })
})
