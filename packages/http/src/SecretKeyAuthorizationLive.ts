// The server side of the secret-key security: the Caller is the principal the edge authenticated (`RouteAccess`),
// which already answered 401, 403 or 503 to a request without one.
import { Caller, SecretKeyAuthorization, Unauthorized } from "@fatura/api"
import { Effect, Layer } from "effect"
import * as RequestPrincipal from "./RequestPrincipal.js"

export const layer = Layer.succeed(
  SecretKeyAuthorization,
  SecretKeyAuthorization.of({
    secretKey: (httpEffect) =>
      Effect.gen(function* () {
        const principal = yield* RequestPrincipal.Current
        if (principal._tag !== "SecretKey")
          return yield* new Unauthorized({ message: "a valid secret key is required: Authorization: Bearer sk_…" })
        return yield* Effect.provideService(httpEffect, Caller, principal.caller)
      })
  })
)
