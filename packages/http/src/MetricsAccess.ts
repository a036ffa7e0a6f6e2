// The server side of `/metrics`'s security: the operator's metrics token, compared in constant time, or no metrics at
// all when none is set — they show platform-wide business volumes (invoices by method and status, refunds, payments).
import { createHash, timingSafeEqual } from "node:crypto"
import { MetricsAuthorization, NotFound, Unauthorized } from "@fatura/api"
import { Context, Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import * as Credentials from "./Credentials.js"

/** The token `/metrics` asks for (`FATURA_METRICS_TOKEN`); `null`, the default, does not serve them at all. */
export const MetricsToken = Context.Reference<string | null>("@fatura/http/MetricsToken", {
  defaultValue: () => null
})

/** Digests of equal length, so that the comparison takes as long whatever the token sent, its length included. */
const digest = (text: string) => createHash("sha256").update(text).digest()

export const layer = Layer.effect(
  MetricsAuthorization,
  Effect.gen(function* () {
    const token = yield* MetricsToken
    const expected = token === null ? null : digest(token)
    return MetricsAuthorization.of({
      // The header is read as every credential is (`Credentials`), not as the framework would.
      metricsToken: (httpEffect) =>
        Effect.gen(function* () {
          if (expected === null) return yield* new NotFound({ message: "no such route" })
          const request = yield* HttpServerRequest.HttpServerRequest
          const sent = Credentials.bearerToken(request.headers.authorization)
          if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
            return yield* new Unauthorized({
              message: "the metrics token is required: Authorization: Bearer <FATURA_METRICS_TOKEN>"
            })
          }
          return yield* httpEffect
        })
    })
  })
)
