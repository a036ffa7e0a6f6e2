// The typed client derived from the contract (`HttpApiClient.make(FaturaApi)`) against the real server: an error
// response, which carries no tag on the wire, comes back as the contract's tagged error, which a program catches by
// its tag; and what it reads is held to the OpenAPI document like every other answer.
import { type CreateInvoiceRequest, FaturaApi, SecretKeyAuthorization } from "@fatura/api"
import { Effect, Layer } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkedFetch } from "./support/Contract.js"
import { inMemory } from "./support/InMemoryServices.js"
import { pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { aWithdrawingCompany, withdrawalFee } from "./support/Withdrawals.js"

const clientOf = (app: TestApp, key: string, headers: Record<string, string> = {}) =>
  HttpApiClient.make(FaturaApi, {
    transformClient: HttpClient.mapRequest((request) =>
      HttpClientRequest.setHeaders(HttpClientRequest.prependUrl(request, app.baseUrl), headers)
    )
  }).pipe(
    Effect.provide(
      Layer.mergeAll(
        HttpApiMiddleware.layerClient(SecretKeyAuthorization, ({ next, request }) =>
          next(HttpClientRequest.bearerToken(request, key))
        ),
        FetchHttpClient.layer,
        Layer.succeed(FetchHttpClient.Fetch, checkedFetch as typeof fetch)
      )
    )
  )

type Client = Effect.Success<ReturnType<typeof clientOf>>

const pix = (total_price_cents: number): CreateInvoiceRequest => ({
  method: "pix",
  total_price_cents,
  payer: { name: "Maria Souza", cpf_cnpj: "529.982.247-25", email: "maria@example.com" }
})

/** Runs `use` with a client of `key` and returns the tag of the error it failed with, or "succeeded". */
const tagOf = <A, E extends { readonly _tag: string }>(
  app: TestApp,
  key: string,
  use: (client: Client) => Effect.Effect<A, E>,
  headers: Record<string, string> = {}
) =>
  Effect.runPromise(
    clientOf(app, key, headers).pipe(
      Effect.flatMap(use),
      Effect.map(() => "succeeded"),
      Effect.catch((error) => Effect.succeed(error))
    )
  )

describe.each([inMemory])("the typed client on $name", (database) => {
  let app: TestApp
  let key: string

  beforeAll(async () => {
    app = await startApp(database)
    key = (await app.registerCompany()).secretKey
  })
  afterAll(() => app.stop())

  it("decodes a 400 into InvalidRequest, with its issues", async () => {
    const error = await tagOf(app, key, (client) => client.webhooks.deliveries({ query: {} }))
    expect(error).toMatchObject({ _tag: "InvalidRequest", code: "invalid_request", issues: [{ path: "event_id" }] })
  })

  it("decodes a 404 into NotFound, which Effect.catchTag catches", async () => {
    const caught = await Effect.runPromise(
      clientOf(app, key).pipe(
        Effect.flatMap((client) => client.invoices.search({ query: { id: "00000000-0000-4000-8000-000000000000" } })),
        Effect.map(() => "found"),
        Effect.catchTag("NotFound", (error) => Effect.succeed(`not found: ${error.code}`))
      )
    )
    expect(caught).toBe("not found: not_found")
  })

  it("decodes a 409 into InvalidState, and a reused Idempotency-Key into IdempotencyConflict", async () => {
    const created = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })
    const refund = await tagOf(app, key, (client) => client.invoices.refund({ payload: { id: created.body.secureId } }))
    expect(refund).toMatchObject({ _tag: "InvalidState", code: "invalid_state" })

    const once = { "idempotency-key": `typed-client-${Date.now()}` }
    expect(await tagOf(app, key, (client) => client.invoices.create({ payload: pix(12_345) }), once)).toBe("succeeded")
    const reused = await tagOf(app, key, (client) => client.invoices.create({ payload: pix(999) }), once)
    expect(reused).toMatchObject({ _tag: "IdempotencyConflict", code: "idempotency_conflict" })
  })

  it("lists a card sale's receivables, releases them in the sandbox, and reads them available", async () => {
    const receivablesKey = (await app.registerCompany()).secretKey
    const outcome = await Effect.runPromise(
      clientOf(app, receivablesKey).pipe(
        Effect.flatMap((client) =>
          Effect.gen(function* () {
            const sale = yield* client.invoices.create({
              payload: {
                ...pix(30_000),
                method: "credit_card",
                card: {
                  number: "4111111111111111",
                  first_name: "Maria",
                  last_name: "Souza",
                  month: "12",
                  year: "2030",
                  security_code: "123",
                  installment: 2
                }
              }
            })
            const waiting = yield* client.company.receivables({ query: { invoice_id: sale.secureId } })
            const released = yield* client.sandbox.releaseReceivables({ payload: { id: sale.secureId } })
            const available = yield* client.company.receivables({ query: { status: "available" } })
            return { sale, waiting: waiting.data, released, available: available.data }
          })
        )
      )
    )
    expect(outcome.waiting.map((receivable) => [receivable.installment, receivable.status])).toEqual([
      [1, "waiting_funds"],
      [2, "waiting_funds"]
    ])
    expect(outcome.released.enterprise).toMatchObject({
      balance_card: outcome.sale.fee.netAmount,
      waiting_funds_card: 0
    })
    expect(outcome.available.map((receivable) => receivable.id)).toEqual(
      outcome.waiting.map((receivable) => receivable.id)
    )
  })

  it("withdraws, reads, lists and cancels a withdrawal, and decodes a refusal into Unprocessable", async () => {
    const { key: withdrawingKey } = await aWithdrawingCompany(app, { sales: [50_000] })
    const outcome = await Effect.runPromise(
      clientOf(app, withdrawingKey).pipe(
        Effect.flatMap((client) =>
          Effect.gen(function* () {
            const created = yield* client.withdrawals.create({ payload: { amount: 10_000, balance: "pix" } })
            const read = yield* client.withdrawals.get({ params: { id: created.id } })
            const listed = yield* client.withdrawals.list({ query: { status: "pending" } })
            const canceled = yield* client.withdrawals.cancel({ params: { id: created.id } })
            const refused = yield* client.withdrawals.create({ payload: { amount: 10_000_000 } }).pipe(
              Effect.flip,
              Effect.map((error) => [error._tag, "code" in error ? error.code : undefined])
            )
            return { created, read, listed: listed.data, canceled, refused }
          })
        )
      )
    )
    expect(outcome.created).toMatchObject({
      status: "pending",
      amount: 10_000,
      fee: withdrawalFee,
      sources: [{ balance: "pix", amount: 10_000 + withdrawalFee }]
    })
    expect(outcome.read).toEqual(outcome.created)
    expect(outcome.listed.map((withdrawal) => withdrawal.id)).toEqual([outcome.created.id])
    expect(outcome.canceled.status).toBe("canceled")
    expect(outcome.refused).toEqual(["Unprocessable", "insufficient_balance"])
  })

  it("creates, lists and deletes a webhook endpoint, and decodes a 404 for one deleted already", async () => {
    const endpointKey = (await app.registerCompany()).secretKey
    const outcome = await Effect.runPromise(
      clientOf(app, endpointKey).pipe(
        Effect.flatMap((client) =>
          Effect.gen(function* () {
            const created = yield* client.webhooks.createEndpoint({
              payload: { url: "https://hooks.loja.example/fatura", events: ["invoice.*"] }
            })
            const listed = yield* client.webhooks.endpoints()
            yield* client.webhooks.deleteEndpoint({ params: { id: created.id } })
            const again = yield* client.webhooks.deleteEndpoint({ params: { id: created.id } }).pipe(
              Effect.as("deleted twice"),
              Effect.catchTag("NotFound", (error) => Effect.succeed(error.code))
            )
            return { created, listed: listed.data, again }
          })
        )
      )
    )
    expect(outcome).toEqual({
      created: {
        id: outcome.created.id,
        url: "https://hooks.loja.example/fatura",
        events: ["invoice.*"],
        created_at: outcome.created.created_at
      },
      listed: [outcome.created],
      again: "not_found"
    })
  })

  it("decodes a 401 into Unauthorized", async () => {
    const error = await tagOf(app, "sk_test_nobody", (client) => client.company.info())
    expect(error).toMatchObject({ _tag: "Unauthorized", code: "unauthorized" })
  })

  it("decodes a 429 into RateLimited, with the Retry-After it carried", async () => {
    const limited = await startApp(database, { rateLimitPerKey: 1 })
    try {
      const limitedKey = (await limited.registerCompany()).secretKey
      const outcomes = await Effect.runPromise(
        clientOf(limited, limitedKey).pipe(
          Effect.flatMap((client) =>
            Effect.forEach([1, 2, 3, 4], () =>
              client.company.info().pipe(
                Effect.as("answered"),
                Effect.catchTag("RateLimited", (error) => Effect.succeed(error))
              )
            )
          )
        )
      )
      expect(outcomes.at(-1)).toMatchObject({ _tag: "RateLimited", code: "rate_limited", retryAfter: 1 })
    } finally {
      await limited.stop()
    }
  })

  it("sends no tag on the wire: an error body is exactly code, message and issues", async () => {
    const reply = await app.request("GET", "/api/v2/invoices", { key })
    expect(Object.keys(reply.body).sort()).toEqual(["code", "issues", "message"])
    const notFound = await app.request("GET", "/api/v2/invoices?id=nothing", { key })
    expect(Object.keys(notFound.body).sort()).toEqual(["code", "message"])
  })
})
