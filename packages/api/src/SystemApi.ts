// Operational endpoints (SPEC 11.1): liveness, readiness and metrics.
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { UnavailableResponse } from "./ApiErrorResponse.js"
import { MetricsAuthorization } from "./Authorization.js"
import * as RouteErrors from "./RouteErrors.js"

export const HealthStatus = Schema.Struct({ status: Schema.Literal("ok") }).annotate({ identifier: "HealthStatus" })

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true })
  .add(
    HttpApiEndpoint.get("health", "/health", { success: HealthStatus, error: RouteErrors.anyRequest }).annotateMerge(
      OpenApi.annotations({ summary: "Liveness", description: "200 while the process runs." })
    ),
    HttpApiEndpoint.get("ready", "/ready", {
      success: HealthStatus,
      error: [...RouteErrors.anyRequest, UnavailableResponse]
    }).annotateMerge(OpenApi.annotations({ summary: "Readiness", description: "200 when the database answers." })),
    HttpApiEndpoint.get("metrics", "/metrics", {
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/plain; version=0.0.4; charset=utf-8" })),
      error: RouteErrors.anyRequest
    })
      .middleware(MetricsAuthorization)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Metrics",
          description:
            "Prometheus text: requests and latency by route and status, invoices created by method and status, " +
            "postback attempts by outcome, database connections. Only with the server's metrics token " +
            "(`Authorization: Bearer <FATURA_METRICS_TOKEN>`): 401 without it or with another, 404 on a server " +
            "that has none."
        })
      )
  )
  .annotateMerge(OpenApi.annotations({ title: "Operations", description: "For whoever runs the service." })) {}
