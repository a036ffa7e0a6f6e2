// The contract as documents (SPEC 11.1): the OpenAPI document at /openapi.json, which names this server by its public
// address (PUBLIC_BASE_URL) so that a client generated from it calls the server it came from, and the interactive
// documentation at /docs, which loads nothing from another host: the reference's script is inlined, its web fonts
// are left out, and its content security policy lets the page reach this server only.
import { FaturaApi } from "@fatura/api"
import { PublicBaseUrl } from "@fatura/application"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiScalar, OpenApi } from "effect/http-api"

/** The contract as this server documents it: served from `publicBaseUrl`. */
export const servedApi = (publicBaseUrl: string) =>
  FaturaApi.annotate(OpenApi.Servers, [{ url: publicBaseUrl, description: "This server" }])

/** What GET /openapi.json answers. */
export const document = (publicBaseUrl: string) => OpenApi.fromApi(servedApi(publicBaseUrl))

/** Scripts and styles inline (the reference's bundle is), fetches of this server only, nothing from elsewhere. */
export const contentSecurityPolicy = (publicBaseUrl: string) =>
  [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${new URL(publicBaseUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

const pageHeaders = (publicBaseUrl: string) =>
  HttpRouter.middleware(
    Effect.succeed((next) =>
      Effect.map(next, (response) =>
        HttpServerResponse.setHeaders(response, {
          "content-security-policy": contentSecurityPolicy(publicBaseUrl),
          "referrer-policy": "no-referrer",
          "x-content-type-options": "nosniff"
        })
      )
    )
  )

export const layer = Layer.unwrap(
  Effect.gen(function* () {
    const publicBaseUrl = yield* PublicBaseUrl
    const api = servedApi(publicBaseUrl)
    const openApi = HttpServerResponse.jsonUnsafe(OpenApi.fromApi(api))
    return Layer.mergeAll(
      HttpRouter.add("GET", "/openapi.json", Effect.succeed(openApi)),
      HttpApiScalar.layer(api, { path: "/docs", scalar: { withDefaultFonts: false, defaultOpenAllTags: true } }).pipe(
        Layer.provide(pageHeaders(publicBaseUrl).layer)
      )
    )
  })
)
