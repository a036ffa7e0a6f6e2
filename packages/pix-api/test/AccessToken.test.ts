// The account's OAuth2 token, against the local PSP: asked for once and shared, by calls one after another and by
// calls made at once; renewed before the PSP would refuse it; and, when the PSP refuses it anyway (it restarted and
// forgot its tokens), dropped and the call made once more with a new one. Tokens expire in real time here: the
// tests that need one to expire wait for it.
import { rmSync } from "node:fs"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { PixProvider } from "@fatura/application"
import { Effect, Option, Redacted } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { freshDir } from "../../../apps/pix-psp/test/support/TestPsp.js"
import * as PixApi from "../src/index.js"
import { ApiPixContract, chargeRequest, Exchanges, settingsOf, startPsp, type TestPsp } from "./support/LocalPsp.js"

let contract: ApiPixContract
let psp: TestPsp

beforeAll(async () => {
  contract = await ApiPixContract.load()
  psp = await startPsp()
})
afterEach(() => {
  expect(contract.problems).toEqual([])
})
afterAll(() => psp?.stop())

/** Two calls of the API Pix: a charge of neither kind is asked for as an immediate one, then as one with a due date. */
const findUnknownCharge = PixProvider.use((pix) => pix.findCharge(chargeRequest().txid))

describe("the access token", () => {
  it.live("is asked for once, and shared by calls one after another and by calls made at once", () => {
    const exchanges = new Exchanges(contract)
    return Effect.gen(function* () {
      const found = yield* Effect.all(
        Array.from({ length: 8 }, () => findUnknownCharge),
        { concurrency: "unbounded" }
      )
      expect(found).toEqual(Array.from({ length: 8 }, () => Option.none()))
      expect(exchanges.tokenRequests).toBe(1)
      for (let call = 0; call < 3; call++) yield* findUnknownCharge
      expect(exchanges.tokenRequests).toBe(1)
      expect(exchanges.apiCalls).toHaveLength(22)
    }).pipe(Effect.provide(PixApi.layer(settingsOf(psp), { transformClient: exchanges.transformClient })))
  })

  it.live("is renewed shortly before it expires, so that the PSP never refuses it", () =>
    Effect.gen(function* () {
      const ttlSeconds = 2
      const shortLived = yield* Effect.promise(() => startPsp({ tokenTtlSeconds: ttlSeconds }))
      yield* Effect.addFinalizer(() => Effect.promise(() => shortLived.stop()))
      const exchanges = new Exchanges(contract)
      const calls = Effect.provide(
        Effect.gen(function* () {
          const asked = Date.now()
          yield* findUnknownCharge
          yield* findUnknownCharge
          // Both calls well within the token's life (the machine was not too busy to make them in time).
          expect(Date.now() - asked).toBeLessThan(ttlSeconds * 500)
          expect(exchanges.tokenRequests).toBe(1)
          // Past the token's life: the next call asks for a new one first.
          yield* Effect.sleep(asked + ttlSeconds * 1000 + 100 - Date.now())
          yield* findUnknownCharge
          expect(exchanges.tokenRequests).toBe(2)
        }),
        PixApi.layer(settingsOf(shortLived), { transformClient: exchanges.transformClient })
      )
      yield* calls
      expect(exchanges.apiCalls).toEqual(Array.from({ length: 3 }, () => ["GET /cob/… 404", "GET /cobv/… 404"]).flat())
    }).pipe(Effect.scoped)
  )

  it.live("is dropped when the PSP refuses it, and the call made once more with a new one", () =>
    Effect.gen(function* () {
      // A PSP of its own, restarted on the same port and state: the client's settings stay right, its token is gone.
      const dir = freshDir()
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const first = yield* Effect.promise(() => startPsp({ dir }))
      const exchanges = new Exchanges(contract)
      yield* Effect.gen(function* () {
        expect(yield* findUnknownCharge).toEqual(Option.none())
        yield* Effect.promise(() => first.stop())
        const restarted = yield* Effect.promise(() => startPsp({ dir, port: first.port }))
        yield* Effect.addFinalizer(() => Effect.promise(() => restarted.stop()))
        expect(yield* findUnknownCharge).toEqual(Option.none())
      }).pipe(Effect.provide(PixApi.layer(settingsOf(first), { transformClient: exchanges.transformClient })))
      expect(
        exchanges.all.map(
          (exchange) => `${exchange.method} ${exchange.path.replace(/\/[^/]{20,}/g, "/…")} ${exchange.status}`
        )
      ).toEqual([
        "POST /oauth/token 200",
        "GET /cob/… 404",
        "GET /cobv/… 404",
        "GET /cob/… 401",
        "POST /oauth/token 200",
        "GET /cob/… 404",
        "GET /cobv/… 404"
      ])
    }).pipe(Effect.scoped)
  )

  it.live("is asked for once more only: a PSP that refuses every token makes the call unavailable", () => {
    const exchanges = new Exchanges(contract)
    // Every API Pix call goes out with a token the PSP never granted.
    const forged = (client: HttpClient.HttpClient) =>
      HttpClient.mapRequest(exchanges.transformClient(client), (request) =>
        request.url.endsWith("/oauth/token") ? request : HttpClientRequest.bearerToken(request, "forged")
      )
    return Effect.gen(function* () {
      const error = yield* Effect.flip(findUnknownCharge)
      expect(error._tag).toBe("PixProviderUnavailable")
      expect(error.message).toMatch(/^the PSP answered GET \/cob\/\w+ with 401 /)
      expect(exchanges.tokenRequests).toBe(2)
      expect(exchanges.apiCalls).toEqual(["GET /cob/… 401", "GET /cob/… 401"])
      // The token is never told.
      for (const granted of exchanges.all.filter((exchange) => exchange.path === "/oauth/token")) {
        expect(error.message).not.toContain(JSON.parse(granted.responseBody).access_token)
      }
      expect(error.message).not.toContain(Redacted.value(settingsOf(psp).clientSecret))
    }).pipe(Effect.provide(PixApi.layer(settingsOf(psp), { transformClient: forged })))
  })
})
