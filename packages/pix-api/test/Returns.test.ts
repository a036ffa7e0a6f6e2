// Returns (refunds) of pix received at the local PSP: asked, processing, then returned once the PSP settles them, or
// refused while its simulator refuses them — later, or at once when it is asked (PixProviderRefused, with the PSP's
// reason); asked again under the same id, the same return. Every exchange is held to the API Pix document.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { PixProvider } from "@fatura/application"
import { Cents, Timestamp } from "@fatura/domain"
import { Effect, Option } from "effect"
import {
  ApiPixContract,
  chargeRequest,
  Exchanges,
  eventually,
  pixApi,
  settingsOf,
  startPsp,
  type TestPsp
} from "./support/LocalPsp.js"

/**
 * How long the PSP takes to settle a return: long enough that a return just asked for is still processing when it is
 * read back even on a busy machine (at 300 ms, a CI run under load read it already returned).
 */
const refundDelayMs = 2_000

let contract: ApiPixContract
let psp: TestPsp
let exchanges: Exchanges

beforeAll(async () => {
  contract = await ApiPixContract.load()
  psp = await startPsp({ refundDelayMs })
})
afterEach(async () => {
  // The switches are effects: run, not merely awaited.
  await Effect.runPromise(psp.switches.change({ refuseRefunds: false, refuseRefundRequests: false }))
  expect(contract.problems).toEqual([])
})
afterAll(() => psp?.stop())

const withProvider = <A, E>(effect: Effect.Effect<A, E, PixProvider>) =>
  Effect.suspend(() => {
    exchanges = new Exchanges(contract)
    return Effect.provide(effect, pixApi(settingsOf(psp), exchanges))
  })

/** A pix of `cents` received for a new charge: its endToEndId. */
const receivedPix = (cents: number) =>
  Effect.gen(function* () {
    const pix = yield* PixProvider
    const request = chargeRequest({ cents })
    yield* pix.charge(request)
    return yield* Effect.promise(async () => {
      const simulator = psp.anonymousClient()
      const paid = await simulator.post("/simulator/pay", { txid: request.txid })
      simulator.close()
      expect(paid.status).toBe(201)
      return paid.json().pix.endToEndId as string
    })
  })

/** Where the return stands once it is no longer processing, polled through the adapter. */
const settled = (endToEndId: string, returnId: string) =>
  Effect.gen(function* () {
    const pix = yield* PixProvider
    const context = yield* Effect.context<never>()
    return yield* Effect.promise(() =>
      eventually(`return ${returnId} to settle`, async () => {
        const found = await Effect.runPromiseWith(context)(pix.findReturn(endToEndId, returnId))
        const state = Option.getOrThrow(found)
        return state._tag === "Processing" ? undefined : state
      })
    )
  })

const now = Effect.sync(() => Timestamp.fromEpochMicros(BigInt(Date.now()) * 1000n))

describe("requestReturn and findReturn", () => {
  it.live("asks for a return, processing, then returned when the PSP settled it", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const endToEndId = yield* receivedPix(10_000)
        const asked = yield* now
        const request = { endToEndId, returnId: "fatura1refund1", amount: Cents.make(3_050), reason: "Item em falta" }
        expect(yield* pix.requestReturn(request)).toEqual({ _tag: "Processing" })
        expect(JSON.parse(exchanges.all.at(-1)?.requestBody ?? "")).toEqual({
          valor: "30.50",
          descricao: "Item em falta"
        })
        expect(yield* pix.findReturn(endToEndId, "fatura1refund1")).toEqual(Option.some({ _tag: "Processing" }))

        const returned = yield* settled(endToEndId, "fatura1refund1")
        expect(returned).toEqual({ _tag: "Returned", at: expect.any(String) })
        if (returned._tag !== "Returned") throw new Error("not returned")
        // Settled after the PSP's delay from when it was asked.
        expect(Timestamp.toEpochMillis(returned.at) - Timestamp.toEpochMillis(asked)).toBeGreaterThanOrEqual(
          refundDelayMs - 50
        )

        // Asked again under the same id, as a retry does: the same return, not a second one.
        expect(yield* pix.requestReturn(request)).toEqual(returned)
      })
    )
  )

  it.live("gets a refusal, with the PSP's reason, for a return the PSP does not make", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const endToEndId = yield* receivedPix(5_000)
        yield* psp.switches.change({ refuseRefunds: true })
        const request = { endToEndId, returnId: "refused1", amount: Cents.make(5_000), reason: null }
        expect(yield* pix.requestReturn(request)).toEqual({ _tag: "Processing" })
        expect(JSON.parse(exchanges.all.at(-1)?.requestBody ?? "")).toEqual({ valor: "50.00" })
        const refused = yield* settled(endToEndId, "refused1")
        expect(refused).toEqual({ _tag: "Refused", reason: expect.any(String) })
        if (refused._tag === "Refused") expect(refused.reason.length).toBeGreaterThan(0)
      })
    )
  )

  it.live("fails with PixProviderRefused, the PSP's violations its reason, for a return it refuses when asked", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const endToEndId = yield* receivedPix(5_000)
        yield* psp.switches.change({ refuseRefundRequests: true })
        const request = { endToEndId, returnId: "toolate1", amount: Cents.make(5_000), reason: null }
        const refused = yield* Effect.flip(pix.requestReturn(request))
        expect(refused).toMatchObject({
          _tag: "PixProviderRefused",
          reason: expect.stringMatching(/^Devolução inválida\. — .+ \(e2eid: O prazo de 90 dias .+\)$/)
        })
        expect(refused.message).toMatch(
          /^the PSP refused PUT \/pix\/\w+\/devolucao\/toolate1 \(400\): Devolução inválida/
        )
        expect(exchanges.apiCalls.slice(-1)).toEqual(["PUT /pix/…/devolucao/toolate1 400"])
        // None was made: there is nothing to find under that id.
        expect(yield* pix.findReturn(endToEndId, "toolate1")).toEqual(Option.none())
      })
    )
  )

  it.live("fails with PixProviderRefused for a return of a pix the PSP never received", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const request = {
          endToEndId: "E99999999202601011200abcdefghijk",
          returnId: "nopix1",
          amount: Cents.make(100),
          reason: null
        }
        expect(yield* Effect.flip(pix.requestReturn(request))).toMatchObject({
          _tag: "PixProviderRefused",
          reason: expect.stringContaining("E99999999202601011200abcdefghijk")
        })
        expect(exchanges.apiCalls.slice(-1)).toEqual(["PUT /pix/…/devolucao/nopix1 404"])
      })
    )
  )

  it.live("answers none for a return never asked for, and for a pix never received", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const endToEndId = yield* receivedPix(1_000)
        expect(yield* pix.findReturn(endToEndId, "neverasked")).toEqual(Option.none())
        expect(yield* pix.findReturn("E99999999202601011200abcdefghijk", "neverasked")).toEqual(Option.none())
        expect(exchanges.apiCalls.slice(-2)).toEqual([
          "GET /pix/…/devolucao/neverasked 404",
          "GET /pix/…/devolucao/neverasked 404"
        ])
      })
    )
  )
})
