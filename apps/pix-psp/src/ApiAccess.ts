// Who may call the API Pix routes, checked before any of them runs: a client certificate issued by the PSP's CA
// (mutual TLS), then a bearer token still valid, holding the route's scope. The simulator's slow and failing switches
// act here too, so that every API Pix route feels them alike.

import { X509Certificate } from "node:crypto"
import { TLSSocket } from "node:tls"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Effect, Option } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { AccessTokens, type ApiScope } from "./AccessTokens.js"
import * as Problem from "./Problem.js"
import { PspState } from "./PspState.js"
import { Switches } from "./Switches.js"

/** The CA's certificate, parsed once per PEM. */
const authorities = new Map<string, X509Certificate>()
const authorityOf = (pem: string) => {
  const known = authorities.get(pem) ?? new X509Certificate(pem)
  authorities.set(pem, known)
  return known
}

/**
 * Whether the connection carries a client certificate that the PSP's CA issued. The server asks every client for one
 * but lets the handshake through without it, since locations, the JWKS and the simulator are open to all. Node's
 * `authorized` alone is not enough: on a resumed TLS session of a client that sent no certificate it is true, so the
 * certificate itself is checked against the CA.
 */
export const trustedClient = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { ca } = yield* PspState
  const socket = NodeHttpServerRequest.toIncomingMessage(request).socket
  if (!(socket instanceof TLSSocket) || !socket.authorized) return false
  const presented = socket.getPeerX509Certificate()
  const authority = authorityOf(ca.certificate)
  return presented?.checkIssued(authority) === true && presented.verify(authority.publicKey)
})

const bearerToken = (authorization: string | undefined) => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")
  return Option.fromNullishOr(match?.[1])
}

/** Runs `handler` for a client with a trusted certificate and a valid token with `scope`; answers in its place if not. */
export const guarded = <E, R>(scope: ApiScope, handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.gen(function* () {
    const switches = yield* (yield* Switches).current
    if (switches.slowMs > 0) yield* Effect.sleep(switches.slowMs)
    if (!(yield* trustedClient)) {
      return Problem.accessDenied("A API Pix exige um certificado de cliente emitido pela CA deste PSP (mTLS).")
    }
    if (switches.failing) return Problem.unavailable("O simulador está com a chave failing ligada.")
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = bearerToken(request.headers.authorization)
    if (Option.isNone(token)) return Problem.unauthorized("Falta o token de acesso (Authorization: Bearer …).")
    const scopes = yield* (yield* AccessTokens).scopesOf(token.value)
    if (Option.isNone(scopes)) return Problem.unauthorized("O token de acesso é desconhecido ou expirou.")
    if (!scopes.value.includes(scope)) return Problem.accessDenied(`O token de acesso não tem o escopo ${scope}.`)
    return yield* handler
  })
