// What a payer's app reaches with no credentials: the location of each charge (`GET /qr/v2/{token}`), which answers
// the charge's payload as a signed JWS (`application/jose`), and the JWKS that verifies it.
import { Clock, Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { Charges } from "./Charges.js"
import * as CobWire from "./CobWire.js"
import { jwksPath, LocationSigner } from "./LocationSigner.js"
import * as Problem from "./Problem.js"
import { PublicAddress } from "./PublicAddress.js"

export const locationPath = "/qr/v2/:token"

const payload = Effect.gen(function* () {
  const token = (yield* HttpRouter.params).token ?? ""
  const found = yield* (yield* Charges).findByLocation(token)
  // A charge that is no longer ATIVA is still served, with its status: the spec leaves that to the PSP, and it
  // tells the payer why the charge cannot be paid.
  if (Option.isNone(found)) return Problem.notFound("CobPayloadNaoEncontrado", "Nenhuma cobrança nesta location.")
  const { baseUrl } = yield* PublicAddress
  const signer = yield* LocationSigner
  const now = yield* Clock.currentTimeMillis
  return HttpServerResponse.text(signer.sign(CobWire.payload(found.value, now), baseUrl + jwksPath), {
    contentType: "application/jose",
    headers: { "cache-control": "no-store" }
  })
})

const jwks = LocationSigner.useSync((signer) => HttpServerResponse.jsonUnsafe(signer.jwks))

export const layer = Layer.mergeAll(HttpRouter.add("GET", locationPath, payload), HttpRouter.add("GET", jwksPath, jwks))
