// Handlers of the sandbox helpers: the same moves, rules, ledger and events as the real path.
import { Caller, FaturaApi, InvoiceReferenceRequest } from "@fatura/api"
import { InvoiceLifecycle } from "@fatura/application"
import { InvoiceTransaction } from "@fatura/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toResponse } from "./FailureResponses.js"
import * as RequestBody from "./RequestBody.js"
import * as RoutePolicy from "./RoutePolicy.js"

/** What each route of the group lets through (`RouteAccess`). */
export const policies: RoutePolicy.OfGroup<"sandbox"> = {
  pay: RoutePolicy.secretKey,
  expire: RoutePolicy.secretKey,
  chargeback: RoutePolicy.secretKey
}

export const layer = HttpApiBuilder.group(
  FaturaApi,
  "sandbox",
  Effect.fn(function* (handlers) {
    const lifecycle = yield* InvoiceLifecycle
    const referencePayload = RequestBody.payload(InvoiceReferenceRequest)
    const helper = (move: typeof lifecycle.pay) => () =>
      Effect.gen(function* () {
        const payload = yield* referencePayload
        const view = yield* move(yield* Caller, String(payload.id)).pipe(Effect.mapError(toResponse))
        return InvoiceTransaction.render(view.invoice, view.company, view.totals)
      })
    return handlers
      .handleRaw("pay", helper(lifecycle.pay))
      .handleRaw("expire", helper(lifecycle.expire))
      .handleRaw("chargeback", helper(lifecycle.chargeback))
  })
)
