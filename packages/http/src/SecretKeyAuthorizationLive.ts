// The server side of the secret-key security: authenticates the bearer key and provides the Caller.
import { Caller, SecretKeyAuthorization } from "@fatura/api"
import { Authentication } from "@fatura/application"
import { Effect, Layer, Redacted } from "effect"
import { toResponse } from "./FailureResponses.js"

export const layer = Layer.effect(
  SecretKeyAuthorization,
  Effect.gen(function* () {
    const authentication = yield* Authentication
    return SecretKeyAuthorization.of({
      secretKey: (httpEffect, { credential }) =>
        authentication.authenticate(Redacted.value(credential)).pipe(
          Effect.mapError(toResponse),
          Effect.flatMap((principal) => Effect.provideService(httpEffect, Caller, principal))
        )
    })
  })
)
