// The client in one call against a real server: the merchant's side with its secret key, the payer's side with the
// public token and the checkout token, typed errors, an HTTP client of the caller's choosing, and input the contract
// refuses stopped before it leaves the process. Every answer the client gets is one the served OpenAPI document tells.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { FetchHttpClient, HttpClient, type HttpClientRequest } from "effect/http"
import { FaturaClient } from "../src/index.js"
import { type FaturaServer, startFaturaServer } from "./support/FaturaServer.js"

const payer = { name: "Maria Souza", cpf_cnpj: "529.982.247-25", email: "maria@example.com" }
const pix = { method: "pix", total_price_cents: 4_990, payer } as const

/** The fetch client, recording each request it carries. */
const recordingFetch = (requests: Array<HttpClientRequest.HttpClientRequest>) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(
      HttpClient.HttpClient,
      HttpClient.tapRequest((request) =>
        Effect.sync(() => {
          requests.push(request)
        })
      )
    )
  ).pipe(Layer.provide(FetchHttpClient.layer))

describe("FaturaClient", () => {
  let server: FaturaServer

  beforeAll(async () => {
    server = await startFaturaServer()
  })
  afterAll(() => server.stop())
  afterEach(() => {
    expect(server.contractProblems(), "answers the served OpenAPI document does not tell").toEqual([])
  })

  const merchant = () => FaturaClient.make({ baseUrl: server.url, secretKey: server.secretKey })

  it.live("creates an invoice and finds it again with the secret key alone", () =>
    Effect.gen(function* () {
      const client = yield* merchant()
      const created = yield* client.invoices.create({ payload: pix })
      expect(created.status).toBe("pending")
      expect(created.amount).toBe(4_990)
      const found = yield* client.invoices.search({ query: { id: created.secureId } })
      expect(found.secureId).toBe(created.secureId)
      expect(found.pix.qrCode).toBe(created.pix.qrCode)
    })
  )

  it.live("takes the key as a Redacted and the base URL as a URL", () =>
    Effect.gen(function* () {
      const client = yield* FaturaClient.make({
        baseUrl: new URL(server.url),
        secretKey: Redacted.make(server.secretKey)
      })
      const company = yield* client.company.info()
      expect(company.id).toBeGreaterThan(0)
    })
  )

  it.live("answers an unknown invoice with a typed NotFound", () =>
    Effect.gen(function* () {
      const client = yield* merchant()
      const reply = yield* client.invoices.search({ query: { id: "00000000-0000-4000-8000-000000000000" } }).pipe(
        Effect.map(() => "found"),
        Effect.catchTag("NotFound", (error) => Effect.succeed(`${error.code}: ${error.message}`))
      )
      expect(reply).toMatch(/^not_found: /)
    })
  )

  it.live("answers a key the server does not know with a typed Unauthorized", () =>
    Effect.gen(function* () {
      const client = yield* FaturaClient.make({
        baseUrl: server.url,
        secretKey: `sk_test_${"0".repeat(32)}`
      })
      const error = yield* Effect.flip(client.invoices.create({ payload: pix }))
      expect(error._tag).toBe("Unauthorized")
    })
  )

  it.live("sends every request through the HTTP client it is given, with the key as a bearer token", () =>
    Effect.gen(function* () {
      const requests: Array<HttpClientRequest.HttpClientRequest> = []
      const client = yield* FaturaClient.make({
        baseUrl: server.url,
        secretKey: server.secretKey,
        httpClient: recordingFetch(requests)
      })
      yield* client.company.info()
      expect(requests.map((request) => [request.method, request.url])).toEqual([["GET", "/api/v2/company"]])
      expect(requests[0]?.headers.authorization).toBe(`Bearer ${server.secretKey}`)
    })
  )

  it.live("refuses input the contract refuses with a SchemaError, without sending it", () =>
    Effect.gen(function* () {
      const requests: Array<HttpClientRequest.HttpClientRequest> = []
      const client = yield* FaturaClient.make({
        baseUrl: server.url,
        secretKey: server.secretKey,
        httpClient: recordingFetch(requests)
      })
      const error = yield* Effect.flip(
        client.invoices.create({ payload: { ...pix, payer: { ...payer, cpf_cnpj: "111.111.111-11" } } })
      )
      expect(error._tag).toBe("SchemaError")
      expect(String(error)).toContain("cpf_cnpj")
      expect(requests).toEqual([])
    })
  )

  it.live("pays a card invoice from the payer's side with the public token and the checkout token", () =>
    Effect.gen(function* () {
      const client = yield* merchant()
      const invoice = yield* client.invoices.create({ payload: { ...pix, method: "credit_card" } })
      const { public_token } = yield* client.company.exchangeToken()
      const payerSide = yield* FaturaClient.makePublic({ baseUrl: server.url, publicToken: public_token })
      const token = invoice.invoice.token_checkout

      const shown = yield* payerSide.invoice({ params: { secureId: invoice.secureId }, query: { token } })
      expect(shown).toMatchObject({ secureId: invoice.secureId, status: "pending", amount: 4_990 })

      const card = yield* payerSide.tokenizeCard({
        payload: {
          number: "4111 1111 1111 1111",
          first_name: "Maria",
          last_name: "Souza",
          month: "12",
          year: String(new Date().getFullYear() + 1),
          security_code: "123"
        }
      })
      expect(card.last_digits).toBe("1111")
      const paid = yield* payerSide.pay({
        params: { secureId: invoice.secureId },
        query: { token },
        payload: { card: { token: card.token, installment: 1, eci: "05", cavv: "AAABBJg0VhI0VniQEjRWAAAAAAA=" } }
      })
      expect(paid.status).toBe("paid")
    })
  )

  it.live("tokenizes no card without the public token", () =>
    Effect.gen(function* () {
      const payerSide = yield* FaturaClient.makePublic({ baseUrl: server.url })
      const error = yield* Effect.flip(
        payerSide.tokenizeCard({
          payload: {
            number: "4111 1111 1111 1111",
            first_name: "Maria",
            last_name: "Souza",
            month: "12",
            year: String(new Date().getFullYear() + 1),
            security_code: "123"
          }
        })
      )
      expect(error._tag).toBe("Unauthorized")
    })
  )
})
