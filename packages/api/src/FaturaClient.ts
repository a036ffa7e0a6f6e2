// The typed client of the contract in one call: a merchant gives its base URL and secret key, a payer's page its
// base URL and the company's public token, and gets every endpoint as an Effect with its typed errors.
import { Effect, Layer, type Redacted } from "effect"
import { FetchHttpClient, HttpClient, type HttpClientError, HttpClientRequest } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { PublicTokenAuthorization, SecretKeyAuthorization } from "./Authorization.js"
import { FaturaApi } from "./FaturaApi.js"
import type { PublicApi } from "./PublicApi.js"

/** Every endpoint of the contract, grouped as the contract groups them: `client.invoices.create(…)`, … */
export type Client = HttpApiClient.ForApi<typeof FaturaApi>

/** The payer's side: the public invoice, card tokenization, paying and the boleto PDF. */
export type PublicClient = HttpApiClient.Client.Group<typeof PublicApi, HttpClientError.HttpClientError, never>

export interface Options {
  /** Where the server answers, e.g. `https://fatura.example.com`; the client adds `/api/v2/…` itself. */
  readonly baseUrl: string | URL
  /** The company's secret key (`sk_test_…` or `sk_live_…`), sent as `Authorization: Bearer` on every request. */
  readonly secretKey: string | Redacted.Redacted<string>
  /** The HTTP client that carries the requests; the platform's `fetch` when omitted. */
  readonly httpClient?: Layer.Layer<HttpClient.HttpClient> | undefined
}

export interface PublicOptions {
  readonly baseUrl: string | URL
  /** The company's public token (`pk_…`), needed only to tokenize a card; the checkout token goes with each call. */
  readonly publicToken?: string | Redacted.Redacted<string> | undefined
  readonly httpClient?: Layer.Layer<HttpClient.HttpClient> | undefined
}

const bearer =
  (token: string | Redacted.Redacted<string>): HttpApiMiddleware.HttpApiMiddlewareClient<never, never, never> =>
  ({ next, request }) =>
    next(HttpClientRequest.bearerToken(request, token))

/** The merchant's client: `const client = yield* FaturaClient.make({ baseUrl, secretKey })`. */
export const make = (options: Options): Effect.Effect<Client> =>
  HttpApiClient.make(FaturaApi, { baseUrl: options.baseUrl }).pipe(
    Effect.provide(
      Layer.merge(
        HttpApiMiddleware.layerClient(SecretKeyAuthorization, bearer(options.secretKey)),
        options.httpClient ?? FetchHttpClient.layer
      )
    )
  )

/** The payer's client: `const payer = yield* FaturaClient.makePublic({ baseUrl, publicToken })`. */
export const makePublic = (options: PublicOptions): Effect.Effect<PublicClient> =>
  Effect.flatMap(HttpClient.HttpClient, (httpClient) =>
    HttpApiClient.group(FaturaApi, { group: "public", httpClient, baseUrl: options.baseUrl })
  ).pipe(
    Effect.provide(
      Layer.merge(
        options.publicToken === undefined
          ? Layer.empty
          : HttpApiMiddleware.layerClient(PublicTokenAuthorization, bearer(options.publicToken)),
        options.httpClient ?? FetchHttpClient.layer
      )
    )
  )
