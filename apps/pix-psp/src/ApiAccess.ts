// Who may call the API Pix routes, checked before any of them runs: a client certificate issued by the PSP's CA
// (mutual TLS), then a bearer token still valid, holding the route's scope. The simulator's slow and failing switches
// act here too, so that every API Pix route feels them alike.

import { TLSSocket } from "node:tls"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Option } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { AccessTokens, type ApiScope } from "./AccessTokens.js"
import * as Problem from "./Problem.js"
import { Switches } from "./Switches.js"

/**
 * Whether the connection carries a client certificate that the PSP's CA issued. The server asks every client for one
 * but lets the handshake through without it, since locations, the JWKS and the simulator are open to all.
 */
export const hasTrustedClientCertificate = (request: HttpServerRequest.HttpServerRequest): boolean => {
  const socket = NodeHttpServerRequest.toIncomingMessage(request).socket
  return socket instanceof TLSSocket && socket.authorized
}

const bearerToken = (authorization: string | undefined) => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")
  return Option.fromNullishOr(match?.[1])
}

/** Runs `handler` for a client with a trusted certificate and a valid token with `scope`; answers in its place if not. */
export const guarded = <E, R>(scope: ApiScope, handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.gen(function* () {
    const switches = yield* (yield* Switches).current
    if (switches.slowMs > 0) yield* Effect.sleep(switches.slowMs)
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!hasTrustedClientCertificate(request)) {
      return Problem.accessDenied("A API Pix exige um certificado de cliente emitido pela CA deste PSP (mTLS).")
    }
    if (switches.failing) return Problem.unavailable("O simulador está com a chave failing ligada.")
    const token = bearerToken(request.headers.authorization)
    if (Option.isNone(token)) return Problem.unauthorized("Falta o token de acesso (Authorization: Bearer …).")
    const scopes = yield* (yield* AccessTokens).scopesOf(token.value)
    if (Option.isNone(scopes)) return Problem.unauthorized("O token de acesso é desconhecido ou expirou.")
    if (!scopes.value.includes(scope)) return Problem.accessDenied(`O token de acesso não tem o escopo ${scope}.`)
    return yield* handler
  })
