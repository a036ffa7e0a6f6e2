// The server side of the public-token security: authenticates a `pk_…` token and provides the PublicCaller.
import { PublicCaller, PublicTokenAuthorization } from "@fatura/api"
import { Authentication } from "@fatura/application"
import { Effect, Layer, Redacted } from "effect"
import { toResponse } from "./FailureResponses.js"

export const layer = Layer.effect(
  PublicTokenAuthorization,
  Effect.gen(function* () {
    const authentication = yield* Authentication
    return PublicTokenAuthorization.of({
      publicToken: (httpEffect, { credential }) =>
        authentication.authenticatePublic(Redacted.value(credential)).pipe(
          Effect.mapError(toResponse),
          Effect.flatMap((principal) => Effect.provideService(httpEffect, PublicCaller, principal))
        )
    })
  })
)
