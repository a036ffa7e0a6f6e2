// Pix received at the local PSP, paid by its simulator: read one by one, listed across pages, and notified to the
// webhook the adapter registered. Every exchange, and every notification, is held to the API Pix document.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { PixProvider } from "@fatura/application"
import { Timestamp } from "@fatura/domain"
import { Effect, Option } from "effect"
import {
  ApiPixContract,
  chargeRequest,
  Exchanges,
  eventually,
  pixApi,
  settingsOf,
  startPsp,
  type TestPsp,
  WebhookReceiver
} from "./support/LocalPsp.js"

let contract: ApiPixContract
let psp: TestPsp
let exchanges: Exchanges
let webhook: WebhookReceiver

beforeAll(async () => {
  contract = await ApiPixContract.load()
  psp = await startPsp()
  webhook = await WebhookReceiver.start(contract)
})
afterEach(() => {
  expect(contract.problems).toEqual([])
})
afterAll(async () => {
  await webhook?.close()
  await psp?.stop()
})

const withProvider = <A, E>(effect: Effect.Effect<A, E, PixProvider>, pageSize?: number) =>
  Effect.suspend(() => {
    exchanges = new Exchanges(contract)
    return Effect.provide(effect, pixApi(settingsOf(psp, pageSize === undefined ? {} : { pageSize }), exchanges))
  })

const now = Effect.sync(() => Timestamp.fromEpochMicros(BigInt(Date.now()) * 1000n))

/** A new charge of `cents`, paid by the simulator: its txid and the pix's endToEndId. */
const paidCharge = (cents: number) =>
  Effect.gen(function* () {
    const pix = yield* PixProvider
    const request = chargeRequest({ cents })
    yield* pix.charge(request)
    const paid = yield* Effect.promise(async () => {
      const simulator = psp.anonymousClient()
      const answer = await simulator.post("/simulator/pay", { txid: request.txid })
      simulator.close()
      return answer
    })
    expect(paid.status).toBe(201)
    return { txid: request.txid, endToEndId: paid.json().pix.endToEndId as string }
  })

describe("findReceived", () => {
  it.live("reads a pix the PSP received, and none for an endToEndId it never received", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const before = yield* now
        const { txid, endToEndId } = yield* paidCharge(2_500)
        const received = Option.getOrThrow(yield* pix.findReceived(endToEndId))
        expect(received).toEqual({ endToEndId, txid, amount: 2_500, paidAt: expect.any(String) })
        expect(received.paidAt >= before && received.paidAt <= (yield* now)).toBe(true)

        expect(yield* pix.findReceived("E99999999202601011200abcdefghijk")).toEqual(Option.none())
        expect(exchanges.apiCalls.filter((call) => call.startsWith("GET /pix"))).toEqual([
          "GET /pix/… 200",
          "GET /pix/… 404"
        ])
      })
    )
  )
})

describe("listReceived", () => {
  it.live("lists every pix of the period, reading every page", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const from = yield* now
        const paid = yield* Effect.forEach([100, 200, 300, 400, 500], paidCharge)
        const to = yield* now

        const listed = yield* pix.listReceived(from, to)
        expect(new Set(listed.map((received) => received.endToEndId))).toEqual(
          new Set(paid.map(({ endToEndId }) => endToEndId))
        )
        expect(listed.map((received) => received.amount).sort((a, b) => a - b)).toEqual([100, 200, 300, 400, 500])
        // 5 pix, 2 a page.
        expect(exchanges.apiCalls.filter((call) => call === "GET /pix 200")).toHaveLength(3)
        expect(
          exchanges.all
            .filter((exchange) => exchange.path === "/pix")
            .map((exchange) => JSON.parse(exchange.responseBody).pix.length)
        ).toEqual([2, 2, 1])
      }),
      2
    )
  )

  it.live("lists nothing for a period without pix, in one page", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const from = Timestamp.fromEpochMicros(1_600_000_000_000_000n)
        expect(yield* pix.listReceived(from, Timestamp.plusSeconds(from, 3600))).toEqual([])
        expect(exchanges.apiCalls).toEqual(["GET /pix 200"])
      })
    )
  )
})

describe("registerWebhook", () => {
  it.live("has the PSP notify each pix received for a charge at <url>/pix", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        yield* pix.registerWebhook(webhook.url)
        expect(exchanges.apiCalls).toEqual(["PUT /webhook/… 200"])

        const { txid, endToEndId } = yield* paidCharge(4_200)
        const notified = yield* Effect.promise(() =>
          eventually(`the webhook to hear of ${endToEndId}`, () =>
            webhook.deliveries.find((delivery) => delivery.body?.pix?.[0]?.endToEndId === endToEndId)
          )
        )
        expect(notified.path).toBe("/webhook/pix")
        expect(notified.body.pix[0]).toMatchObject({ endToEndId, txid, valor: "42.00" })
        expect(contract.checked).toContain("listaPix callback")
      })
    )
  )
})
