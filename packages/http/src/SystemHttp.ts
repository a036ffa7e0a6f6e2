// Handlers of the operational endpoints: liveness, database readiness, and the metrics in Prometheus text.
import { FaturaApi } from "@fatura/api"
import { Readiness } from "@fatura/application"
import { Effect, Metric } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { PrometheusMetrics } from "effect/observability"
import { toResponse } from "./FailureResponses.js"
import * as HttpMetrics from "./HttpMetrics.js"
import * as RoutePolicy from "./RoutePolicy.js"

/** What each route of the group lets through (`RouteAccess`). */
export const policies: RoutePolicy.OfGroup<"system"> = {
  health: RoutePolicy.open,
  ready: RoutePolicy.open,
  // Its token is checked by the contract's `MetricsAuthorization` (`MetricsAccess`).
  metrics: RoutePolicy.open
}

export const layer = HttpApiBuilder.group(
  FaturaApi,
  "system",
  Effect.fn(function* (handlers) {
    const readiness = yield* Readiness
    return handlers
      .handle("health", () => Effect.succeed({ status: "ok" as const }))
      .handle("ready", () => readiness.check.pipe(Effect.as({ status: "ok" as const }), Effect.mapError(toResponse)))
      .handle("metrics", () =>
        readiness.connections.pipe(
          Effect.flatMap((use) =>
            Effect.all([
              Metric.update(Metric.withAttributes(HttpMetrics.databaseConnections, { state: "open" }), use.open),
              Metric.update(Metric.withAttributes(HttpMetrics.databaseConnections, { state: "max" }), use.max),
              use.active === null
                ? Effect.void
                : Metric.update(Metric.withAttributes(HttpMetrics.databaseConnections, { state: "active" }), use.active)
            ])
          ),
          // Metrics are most wanted when the database is down: they are served without its figures then.
          Effect.catchTag("StorageUnavailable", () => Effect.void),
          Effect.andThen(PrometheusMetrics.format({ prefix: "fatura" }))
        )
      )
  })
)
