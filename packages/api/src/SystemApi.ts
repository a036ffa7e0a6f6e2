// Operational endpoints (SPEC 11.1): liveness and readiness.
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Unavailable } from "./ApiError.js"

export const HealthStatus = Schema.Struct({ status: Schema.Literal("ok") })

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true }).add(
  HttpApiEndpoint.get("health", "/health", { success: HealthStatus }),
  HttpApiEndpoint.get("ready", "/ready", { success: HealthStatus, error: Unavailable })
) {}
