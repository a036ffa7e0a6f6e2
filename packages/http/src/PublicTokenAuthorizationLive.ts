// The server side of the public-token security: the PublicCaller is the principal the edge authenticated
// (`RouteAccess`), which already answered 401, 403 or 503 to a request without one.
import { PublicCaller, PublicTokenAuthorization, Unauthorized } from "@fatura/api"
import { Effect, Layer } from "effect"
import * as RequestPrincipal from "./RequestPrincipal.js"

export const layer = Layer.succeed(
  PublicTokenAuthorization,
  PublicTokenAuthorization.of({
    publicToken: (httpEffect) =>
      Effect.gen(function* () {
        const principal = yield* RequestPrincipal.Current
        if (principal._tag !== "PublicToken")
          return yield* new Unauthorized({ message: "a valid public token is required: Authorization: Bearer pk_…" })
        return yield* Effect.provideService(httpEffect, PublicCaller, principal.caller)
      })
  })
)
