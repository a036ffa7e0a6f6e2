// The server side of `/metrics`'s security: the operator's metrics token, compared in constant time, or no metrics at
// all when none is set — they show platform-wide business volumes (invoices by method and status, refunds, payments).
import { createHash, timingSafeEqual } from "node:crypto"
import { MetricsAuthorization, NotFound, Unauthorized } from "@fatura/api"
import { Context, Effect, Layer, Redacted } from "effect"

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
      // The token is the credential the framework read off `Authorization: Bearer …` (empty without one).
      metricsToken: (httpEffect, { credential }) =>
        Effect.gen(function* () {
          if (expected === null) return yield* new NotFound({ message: "no such route" })
          const sent = Redacted.value(credential)
          if (sent === "" || !timingSafeEqual(digest(sent), expected)) {
            return yield* new Unauthorized({
              message: "the metrics token is required: Authorization: Bearer <FATURA_METRICS_TOKEN>"
            })
          }
          return yield* httpEffect
        })
    })
  })
)
