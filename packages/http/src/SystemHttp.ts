// Handlers of the operational endpoints: liveness and database readiness.
import { FaturaApi } from "@fatura/api"
import { Readiness } from "@fatura/application"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toResponse } from "./FailureResponses.js"

export const layer = HttpApiBuilder.group(
  FaturaApi,
  "system",
  Effect.fn(function* (handlers) {
    const readiness = yield* Readiness
    return handlers
      .handle("health", () => Effect.succeed({ status: "ok" as const }))
      .handle("ready", () => readiness.check.pipe(Effect.as({ status: "ok" as const }), Effect.mapError(toResponse)))
  })
)
