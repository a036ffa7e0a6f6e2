// Handlers of the sandbox helpers: the same moves, rules, ledger and events as the real path.
import { Caller, FaturaApi, type InvoiceReferenceRequest } from "@fatura/api"
import { InvoiceLifecycle, Receivables } from "@fatura/application"
import { InvoiceTransaction } from "@fatura/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toResponse } from "./FailureResponses.js"
import * as RoutePolicy from "./RoutePolicy.js"

/** What each route of the group lets through (`RouteAccess`). */
export const policies: RoutePolicy.OfGroup<"sandbox"> = {
  pay: RoutePolicy.secretKey,
  expire: RoutePolicy.secretKey,
  chargeback: RoutePolicy.secretKey,
  releaseReceivables: RoutePolicy.secretKey
}

export const layer = HttpApiBuilder.group(
  FaturaApi,
  "sandbox",
  Effect.fn(function* (handlers) {
    const lifecycle = yield* InvoiceLifecycle
    const receivables = yield* Receivables
    const helper =
      (move: typeof lifecycle.pay) =>
      ({ payload }: { readonly payload: typeof InvoiceReferenceRequest.Type }) =>
        Effect.gen(function* () {
          const view = yield* move(yield* Caller, String(payload.id)).pipe(Effect.mapError(toResponse))
          return InvoiceTransaction.render(view.invoice, view.company, view.totals)
        })
    return handlers
      .handle("pay", helper(lifecycle.pay))
      .handle("expire", helper(lifecycle.expire))
      .handle("chargeback", helper(lifecycle.chargeback))
      .handle("releaseReceivables", ({ payload }) =>
        Effect.gen(function* () {
          const view = yield* receivables.release(yield* Caller, String(payload.id)).pipe(Effect.mapError(toResponse))
          return InvoiceTransaction.render(view.invoice, view.company, view.totals)
        })
      )
  })
)
