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
    const error = new InvoiceStatus.InvalidTransition({ from: "pending", action: "refund_partial" })
    expect(error.message).toBe("cannot refund an invoice that is pending")
  })

  // A merchant reads these messages (409 invalid_state): they name the operation and the status as the contract
  // does ("refund", "pay", "expire", "charge back"; `partially_refunded`), never an action's own name.
  it.each(statuses.flatMap((from) => actions.map((action) => [from, action] as const)))(
    "a refused %s --%s--> says it in the contract's words",
    (from, action) => {
      const { message } = new InvoiceStatus.InvalidTransition({ from, action })
      expect(message).toMatch(/^cannot (pay|refund|expire|refuse|charge back) an invoice that is [a-z_]+$/)
      expect(message.endsWith(` ${from}`)).toBe(true)
      const words = message.slice(0, -from.length)
      expect(words, "an action's own name").not.toMatch(/_|decline|chargeback/)
    }
  )

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
