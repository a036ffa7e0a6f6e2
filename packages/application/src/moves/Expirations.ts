// Use case: expiring pending pix invoices past `expires_in` and boletos past their due date (SPEC 6.1, 6.2).
// A worker runs the loop; in embedded mode the server runs it in its own process (SPEC 8.3).
import { Context, type Duration, Effect, Layer, Schedule } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"
import { InvoiceLifecycle } from "./InvoiceLifecycle.js"

const batchSize = 100

export class Expirations extends Context.Service<
  Expirations,
  {
    /** Expires everything due now, in batches; returns how many invoices it expired. */
    readonly sweep: Effect.Effect<number, StorageUnavailable>
    /** Sweeps every `interval` for ever; a failed sweep is logged and tried again at the next tick. */
    readonly run: (interval: Duration.Input) => Effect.Effect<never>
  }
>()("@fatura/application/Expirations") {
  static readonly layer = Layer.effect(
    Expirations,
    Effect.gen(function* () {
      const lifecycle = yield* InvoiceLifecycle

      const sweep = Effect.gen(function* () {
        let total = 0
        while (true) {
          const expired = yield* lifecycle.expireDue(batchSize)
          total += expired
          if (expired < batchSize) return total
        }
      }).pipe(Effect.withSpan("Expirations.sweep"))

      const run = (interval: Duration.Input) =>
        sweep.pipe(
          Effect.tap((expired) => (expired > 0 ? Effect.logInfo("expired invoices", { expired }) : Effect.void)),
          Effect.catchCause((cause) => Effect.logWarning("expiry sweep failed", cause)),
          Effect.repeat(Schedule.spaced(interval)),
          Effect.andThen(Effect.never)
        )

      return Expirations.of({ sweep, run })
    })
  )
}
