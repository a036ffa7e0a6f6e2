// Operational endpoints (SPEC 11.1): liveness, readiness and metrics.
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Unavailable } from "./ApiError.js"

export const HealthStatus = Schema.Struct({ status: Schema.Literal("ok") })

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true }).add(
  HttpApiEndpoint.get("health", "/health", { success: HealthStatus }),
  HttpApiEndpoint.get("ready", "/ready", { success: HealthStatus, error: Unavailable }),
  HttpApiEndpoint.get("metrics", "/metrics", {
    success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/plain; version=0.0.4; charset=utf-8" }))
  }).annotateMerge(
    OpenApi.annotations({
      summary: "Metrics",
      description:
        "Prometheus text: requests and latency by route and status, invoices created by method and status, " +
        "postback attempts by outcome, database connections."
    })
  )
) {}
