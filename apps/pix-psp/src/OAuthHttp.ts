// `POST /oauth/token`: OAuth2's client-credentials grant (RFC 6749 §4.4), the API Pix's security scheme. The client
// authenticates twice, as a PSP asks: with its certificate in the TLS handshake and with HTTP Basic
// `client_id:client_secret`. Errors are OAuth2's own JSON (§5.2): this route is outside the API Pix document.
import { createHash, timingSafeEqual } from "node:crypto"
import { Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { AccessTokens, type ApiScope, isOfferedScope, offeredScopes } from "./AccessTokens.js"
import { trustedClient } from "./ApiAccess.js"
import { PspState } from "./PspState.js"

export const path = "/oauth/token"

const noStore = { "cache-control": "no-store", pragma: "no-cache" }

const oauthError = (status: number, error: string, description: string) =>
  HttpServerResponse.jsonUnsafe(
    { error, error_description: description },
    {
      status,
      headers: status === 401 ? { ...noStore, "www-authenticate": 'Basic realm="pix-psp"' } : noStore
    }
  )

/** `client_id` and `client_secret` of an HTTP Basic header, each form-decoded as §2.3.1 asks. */
const basicCredentials = (authorization: string | undefined) => {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? "")
  const decoded = match?.[1] === undefined ? "" : Buffer.from(match[1], "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  if (colon < 0) return Option.none()
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, " "))
    } catch {
      return text
    }
  }
  return Option.some({ id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) })
}

const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest())

const token = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { credentials } = yield* PspState
  if (!(yield* trustedClient)) {
    return oauthError(401, "invalid_client", "a client certificate issued by this PSP's CA is required (mTLS)")
  }
  const client = basicCredentials(request.headers.authorization)
  if (
    Option.isNone(client) ||
    !sameSecret(client.value.id, credentials.clientId) ||
    !sameSecret(client.value.secret, credentials.clientSecret)
  ) {
    return oauthError(401, "invalid_client", "unknown client or wrong secret (HTTP Basic client_id:client_secret)")
  }
  const form = yield* request.urlParamsBody.pipe(Effect.option)
  if (Option.isNone(form))
    return oauthError(400, "invalid_request", "the body must be application/x-www-form-urlencoded")
  const grantType = UrlParams.getFirst(form.value, "grant_type")
  if (Option.getOrUndefined(grantType) !== "client_credentials") {
    return oauthError(400, "unsupported_grant_type", "only grant_type=client_credentials is supported")
  }
  const asked = Option.match(UrlParams.getFirst(form.value, "scope"), {
    onNone: (): ReadonlyArray<string> => offeredScopes,
    onSome: (scope) => scope.split(" ").filter((part) => part !== "")
  })
  const unknown = asked.filter((scope) => !isOfferedScope(scope))
  if (unknown.length > 0) return oauthError(400, "invalid_scope", `not offered: ${unknown.join(" ")}`)
  const scopes = [...new Set(asked as ReadonlyArray<ApiScope>)]
  const issued = yield* (yield* AccessTokens).issue(scopes)
  return HttpServerResponse.jsonUnsafe(
    {
      access_token: issued.accessToken,
      token_type: "Bearer",
      expires_in: issued.expiresIn,
      scope: issued.scopes.join(" ")
    },
    { headers: noStore }
  )
})

export const layer = HttpRouter.add("POST", path, token)
