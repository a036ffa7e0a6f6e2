// The business series of `/metrics` (SPEC 11.1): invoices created by method and status, postback attempts by
// outcome. The HTTP series live with the HTTP adapter; the database's with its port.
import { Effect, Metric } from "effect"

export const invoicesCreated = Metric.counter("invoices_created_total", {
  description: "Invoices created, by payment method and the status they were created in"
})

export const postbackAttempts = Metric.counter("postback_attempts_total", {
  description: "Postback delivery attempts, by outcome: succeeded, retry (failed, another attempt is scheduled), failed"
})

export const countInvoiceCreated = (method: string, status: string): Effect.Effect<void> =>
  Metric.update(Metric.withAttributes(invoicesCreated, { method, status }), 1)

export const countPostbackAttempt = (outcome: "succeeded" | "retry" | "failed"): Effect.Effect<void> =>
  Metric.update(Metric.withAttributes(postbackAttempts, { outcome }), 1).pipe(Effect.asVoid)
