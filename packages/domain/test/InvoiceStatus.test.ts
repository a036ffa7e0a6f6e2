import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { InvoiceStatus } from "../src/index.js"

const statuses = InvoiceStatus.InvoiceStatus.literals
const actions = InvoiceStatus.InvoiceAction.literals

// SPEC 7.1, written out as the list of arrows of its diagram.
const allowed: ReadonlyArray<
  readonly [InvoiceStatus.InvoiceStatus, InvoiceStatus.InvoiceAction, InvoiceStatus.InvoiceStatus]
> = [
  ["pending", "pay", "paid"],
  ["pending", "expire", "expired"],
  ["pending", "decline", "refused"],
  ["paid", "refund_partial", "partially_refunded"],
  ["paid", "refund_full", "refunded"],
  ["paid", "chargeback", "chargedback"],
  ["partially_refunded", "refund_partial", "partially_refunded"],
  ["partially_refunded", "refund_full", "refunded"],
  ["partially_refunded", "chargeback", "chargedback"]
]

describe("InvoiceStatus", () => {
  it.each(allowed)("%s --%s--> %s", (from, action, to) => {
    expect(Result.getOrThrow(InvoiceStatus.transition(from, action))).toBe(to)
  })

  it("refuses every move the diagram does not draw", () => {
    let refused = 0
    for (const from of statuses) {
      for (const action of actions) {
        if (allowed.some(([f, a]) => f === from && a === action)) continue
        const result = InvoiceStatus.transition(from, action)
        expect(Result.isFailure(result), `${from} --${action}-->`).toBe(true)
        if (Result.isFailure(result)) {
          expect(result.failure).toBeInstanceOf(InvoiceStatus.InvalidTransition)
          expect(result.failure).toMatchObject({ _tag: "InvalidTransition", from, action })
        }
        refused++
      }
    }
    expect(refused).toBe(statuses.length * actions.length - allowed.length)
  })

  it("says in words which move was refused", () => {
    const error = new InvoiceStatus.InvalidTransition({ from: "pending", action: "refund_full" })
    expect(error.message).toBe("cannot refund_full an invoice that is pending")
  })

  it("calls final the statuses that no action leaves", () => {
    expect(statuses.filter(InvoiceStatus.isFinal)).toEqual(["refunded", "expired", "refused", "chargedback"])
  })

  it("names the event of each status", () => {
    expect(statuses.map(InvoiceStatus.eventType)).toEqual([
      "invoice.created",
      "invoice.paid",
      "invoice.partially_refunded",
      "invoice.refunded",
      "invoice.expired",
      "invoice.refused",
      "invoice.chargedback"
    ])
  })
})
