// Charges against the local PSP: the BR Code a charge hands back is a dynamic pix code whose location serves the
// charge, signed, to a payer's app; asking again answers the same code; and the charge is read back as the PSP keeps
// it, before and after it is paid. Every exchange is held to the API Pix document.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { PixProvider } from "@fatura/application"
import { Effect, Option } from "effect"
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from "jose"
import { hasError, isDynamicPix, parsePix } from "pix-utils"
import {
  ApiPixContract,
  chargeRequest,
  Exchanges,
  pixApi,
  settingsOf,
  startPsp,
  type TestPsp
} from "./support/LocalPsp.js"

let contract: ApiPixContract
let psp: TestPsp
let exchanges: Exchanges

beforeAll(async () => {
  contract = await ApiPixContract.load()
  psp = await startPsp()
})
afterEach(() => {
  expect(contract.problems).toEqual([])
})
afterAll(async () => {
  try {
    // The contract did hold the adapter's exchanges, not only the payer's.
    expect(new Set(contract.checked)).toEqual(
      new Set([
        "PUT /cob/{txid} 201",
        "GET /cob/{txid} 200",
        "GET /cob/{txid} 404",
        "GET /cobv/{txid} 404",
        "GET /{pixUrlAccessToken} 200"
      ])
    )
  } finally {
    await psp?.stop()
  }
})

const withProvider = <A, E>(effect: Effect.Effect<A, E, PixProvider>) =>
  Effect.suspend(() => {
    exchanges = new Exchanges(contract)
    return Effect.provide(effect, pixApi(settingsOf(psp), exchanges))
  })

/** What the payer's app reads at a location: the signed payload, verified with the PSP's published key. */
const payloadAt = (location: string) =>
  Effect.promise(async () => {
    // A payer's app has no client certificate.
    const payer = psp.anonymousClient(contract)
    try {
      const answer = await payer.get(`https://${location}`, { bearer: null })
      expect(answer.status).toBe(200)
      expect(answer.headers["content-type"]).toMatch(/^application\/jose/)
      const jwks = (await payer.get(String(decodeProtectedHeader(answer.text).jku), { bearer: null })).json()
      const { payload } = await compactVerify(answer.text, createLocalJWKSet(jwks))
      return JSON.parse(new TextDecoder().decode(payload))
    } finally {
      payer.close()
    }
  })

const pay = (txid: string) =>
  Effect.promise(async () => {
    const simulator = psp.anonymousClient(contract)
    const paid = await simulator.post("/simulator/pay", { txid })
    simulator.close()
    expect(paid.status).toBe(201)
    return paid.json().pix as { endToEndId: string; valor: string; horario: string }
  })

describe("charge", () => {
  it.live("hands back a dynamic BR Code whose location serves the charge, signed, with its txid and amount", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const request = chargeRequest({ cents: 12_345 })
        const { qrCode } = yield* pix.charge(request)

        const code = parsePix(qrCode)
        if (hasError(code) || !isDynamicPix(code)) throw new Error(`not a dynamic pix code: ${JSON.stringify(code)}`)
        expect(code.url).toMatch(/^127\.0\.0\.1:\d+\/qr\/v2\/[0-9a-f]{32}$/)
        expect(yield* payloadAt(code.url)).toMatchObject({
          txid: request.txid,
          status: "ATIVA",
          valor: { original: "123.45" },
          // The platform's key, not the company's.
          chave: psp.state.credentials.pixKey,
          devedor: { cpf: "52998224725", nome: "Maria Souza" },
          solicitacaoPagador: "Pão de queijo (3)",
          calendario: { expiracao: 3600 }
        })
        expect(exchanges.apiCalls).toEqual(["PUT /cob/… 201"])
      })
    )
  )

  it.live("answers the same BR Code when the same charge is asked again, as a retry does", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const request = chargeRequest()
        const first = yield* pix.charge(request)
        expect(yield* pix.charge(request)).toEqual(first)
        expect(exchanges.apiCalls).toEqual(["PUT /cob/… 201", "PUT /cob/… 201"])
        expect(exchanges.tokenRequests).toBe(1)
      })
    )
  )

  it.live("writes a company payer's CNPJ, and amounts to the cent without rounding", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        for (const cents of [1, 10, 100_001, 9_999_999_999]) {
          const request = chargeRequest({ cents, document: "11.222.333/0001-81" })
          const code = parsePix((yield* pix.charge(request)).qrCode)
          if (hasError(code) || !isDynamicPix(code)) throw new Error("not a dynamic pix code")
          const payload = yield* payloadAt(code.url)
          expect([cents, payload.valor.original, payload.devedor]).toEqual([
            cents,
            `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`,
            { cnpj: "11222333000181", nome: "Maria Souza" }
          ])
          expect(yield* pix.findCharge(request.txid)).toEqual(
            Option.some({ txid: request.txid, status: "active", amount: cents, pix: [] })
          )
        }
      })
    )
  )
})

describe("findCharge", () => {
  it.live("reads a charge active, then completed with the pix that paid it", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const request = chargeRequest({ cents: 3_700 })
        yield* pix.charge(request)
        expect(yield* pix.findCharge(request.txid)).toEqual(
          Option.some({ txid: request.txid, status: "active", amount: 3_700, pix: [] })
        )

        const paid = yield* pay(request.txid)
        const charge = yield* pix.findCharge(request.txid)
        expect(charge).toEqual(
          Option.some({
            txid: request.txid,
            status: "completed",
            amount: 3_700,
            pix: [{ endToEndId: paid.endToEndId, txid: request.txid, amount: 3_700, paidAt: expect.any(String) }]
          })
        )
        // The PSP writes milliseconds; the domain's timestamp has six digits and names the same instant.
        const paidAt = Option.getOrThrow(charge).pix[0]?.paidAt ?? ""
        expect(paidAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}000Z$/)
        expect(Date.parse(paidAt)).toBe(Date.parse(paid.horario))
      })
    )
  )

  it.live("answers none for a txid the PSP has no charge for, immediate or with a due date", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        expect(yield* pix.findCharge(chargeRequest().txid)).toEqual(Option.none())
        expect(exchanges.apiCalls).toEqual(["GET /cob/… 404", "GET /cobv/… 404"])
      })
    )
  )
})
