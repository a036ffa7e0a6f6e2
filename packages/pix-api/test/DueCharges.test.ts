// Charges with a due date against the local PSP: the BR Code a charge hands back is a dynamic pix code whose location
// serves the charge, signed, with its due date; asking again answers the same code; the charge is read back as the PSP
// keeps it, before and after it is paid, and removed, once or twice, but not once paid. A PSP that does not answer
// makes each call unavailable. Every exchange is held to the API Pix document.

import { createServer } from "node:net"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { PixProvider, type PixProviderFailure } from "@fatura/application"
import { Duration, Effect, Logger, Option } from "effect"
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from "jose"
import { hasError, isDynamicPix, parsePix } from "pix-utils"
import {
  ApiPixContract,
  dueChargeRequest,
  Exchanges,
  pixApi,
  saoPauloDay,
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
afterEach(async () => {
  await Effect.runPromise(psp.switches.change({ slowMs: 0, failing: false }))
  expect(contract.problems).toEqual([])
})
afterAll(async () => {
  try {
    // The contract did hold the adapter's cobv exchanges, and the payer's reading of their locations.
    expect(contract.checked).toEqual(
      expect.arrayContaining([
        "PUT /cobv/{txid} 201",
        "PUT /cobv/{txid} 400",
        "GET /cob/{txid} 404",
        "GET /cobv/{txid} 200",
        "GET /cobv/{txid} 404",
        "PATCH /cobv/{txid} 200",
        "PATCH /cobv/{txid} 400",
        "PATCH /cobv/{txid} 404",
        "GET /cobv/{pixUrlAccessToken} 200"
      ])
    )
  } finally {
    await psp?.stop()
  }
})

const withProvider = <A, E>(effect: Effect.Effect<A, E, PixProvider>, settings = settingsOf(psp)) =>
  Effect.suspend(() => {
    exchanges = new Exchanges(contract)
    return Effect.provide(effect, pixApi(settings, exchanges))
  })

/** The provider's charges with a due date: the local PSP makes them. */
const dueCharges = Effect.map(PixProvider, (pix) => {
  if (pix.dueCharges === null) throw new Error("the API Pix provider makes no charges with a due date")
  return pix.dueCharges
})

/** The location of a dynamic BR Code, which must be one. */
const locationOf = (qrCode: string) => {
  const code = parsePix(qrCode)
  if (hasError(code) || !isDynamicPix(code)) throw new Error(`not a dynamic pix code: ${JSON.stringify(code)}`)
  return code.url
}

/** What the payer's app reads at a location: the signed payload, verified with the PSP's published key. */
const payloadAt = (location: string) =>
  Effect.promise(async () => {
    const payer = psp.anonymousClient(contract)
    try {
      const answer = await payer.get(`https://${location}`, { bearer: null })
      expect(answer.status).toBe(200)
      const jwks = (await payer.get(String(decodeProtectedHeader(answer.text).jku), { bearer: null })).json()
      const { payload } = await compactVerify(answer.text, createLocalJWKSet(jwks))
      return JSON.parse(new TextDecoder().decode(payload))
    } finally {
      payer.close()
    }
  })

/** A payer pays a BR Code through the PSP's simulator: the simulator's status and answer. */
const pay = (qrCode: string) =>
  Effect.promise(async () => {
    const simulator = psp.anonymousClient()
    const paid = await simulator.post("/simulator/pay", { pixCopiaECola: qrCode })
    simulator.close()
    return { status: paid.status, body: paid.json() }
  })

describe("dueCharges.charge", () => {
  it.live("hands back a dynamic BR Code whose location serves the charge, signed, with its due date", () =>
    withProvider(
      Effect.gen(function* () {
        const charges = yield* dueCharges
        const dueDate = saoPauloDay(7)
        const request = dueChargeRequest({ cents: 12_345, dueDate })
        const { qrCode } = yield* charges.charge(request)
        expect(JSON.parse(exchanges.all.at(-1)?.requestBody ?? "")).toEqual({
          calendario: { dataDeVencimento: dueDate, validadeAposVencimento: 0 },
          devedor: { cpf: "52998224725", nome: "Maria Souza" },
          valor: { original: "123.45" },
          chave: psp.state.credentials.pixKey,
          solicitacaoPagador: "Mensalidade de março"
        })

        const location = locationOf(qrCode)
        expect(location).toMatch(/^127\.0\.0\.1:\d+\/qr\/v2\/cobv\/[0-9a-f]{32}$/)
        expect(yield* payloadAt(location)).toMatchObject({
          txid: request.txid,
          status: "ATIVA",
          calendario: { dataDeVencimento: dueDate, validadeAposVencimento: 0 },
          valor: { original: "123.45", final: "123.45" },
          // The platform's key, not the company's.
          chave: psp.state.credentials.pixKey,
          devedor: { cpf: "52998224725", nome: "Maria Souza" },
          solicitacaoPagador: "Mensalidade de março"
        })
        expect(exchanges.apiCalls).toEqual(["PUT /cobv/… 201"])
      })
    )
  )

  it.live("answers the same BR Code when the same charge is asked again, as a retry does", () =>
    withProvider(
      Effect.gen(function* () {
        const charges = yield* dueCharges
        const request = dueChargeRequest({ document: "11.222.333/0001-81" })
        const first = yield* charges.charge(request)
        expect(yield* charges.charge(request)).toEqual(first)
        expect(exchanges.apiCalls).toEqual(["PUT /cobv/… 201", "PUT /cobv/… 201"])
        expect(exchanges.tokenRequests).toBe(1)
        expect(yield* payloadAt(locationOf(first.qrCode))).toMatchObject({
          devedor: { cnpj: "11222333000181", nome: "Maria Souza" }
        })
      })
    )
  )

  it.live("fails with PixProviderRefused, the PSP's violation its reason, for a due date already past", () =>
    withProvider(
      Effect.gen(function* () {
        const charges = yield* dueCharges
        const refused = yield* Effect.flip(charges.charge(dueChargeRequest({ dueDate: saoPauloDay(-1) })))
        expect(refused).toMatchObject({
          _tag: "PixProviderRefused",
          reason: expect.stringMatching(/^Cobrança inválida\. — .+ \(cobv\.calendario\.dataDeVencimento: .+\)$/)
        })
        expect(exchanges.apiCalls).toEqual(["PUT /cobv/… 400"])
      })
    )
  )
})

describe("findCharge, of a charge with a due date", () => {
  it.live("reads it active, then completed with the pix that paid it, asking for a cobv once no cob has the txid", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const request = dueChargeRequest({ cents: 4_990 })
        const { qrCode } = yield* (yield* dueCharges).charge(request)
        expect(yield* pix.findCharge(request.txid)).toEqual(
          Option.some({ txid: request.txid, status: "active", amount: 4_990, pix: [] })
        )
        expect(exchanges.apiCalls.slice(-2)).toEqual(["GET /cob/… 404", "GET /cobv/… 200"])

        const paid = yield* pay(qrCode)
        expect(paid.status).toBe(201)
        expect(yield* pix.findCharge(request.txid)).toEqual(
          Option.some({
            txid: request.txid,
            status: "completed",
            amount: 4_990,
            pix: [
              { endToEndId: paid.body.pix.endToEndId, txid: request.txid, amount: 4_990, paidAt: expect.any(String) }
            ]
          })
        )
      })
    )
  )

  it.live("answers none for a txid the PSP has no charge of either kind for", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        expect(yield* pix.findCharge(dueChargeRequest().txid)).toEqual(Option.none())
        expect(exchanges.apiCalls).toEqual(["GET /cob/… 404", "GET /cobv/… 404"])
      })
    )
  )
})

describe("dueCharges.remove", () => {
  it.live("removes a charge, which then reads removed and cannot be paid; removing it again succeeds", () =>
    withProvider(
      Effect.gen(function* () {
        const pix = yield* PixProvider
        const charges = yield* dueCharges
        const request = dueChargeRequest({ cents: 2_000 })
        const { qrCode } = yield* charges.charge(request)
        yield* charges.remove(request.txid)
        expect(JSON.parse(exchanges.all.at(-1)?.requestBody ?? "")).toEqual({
          status: "REMOVIDA_PELO_USUARIO_RECEBEDOR"
        })
        expect(yield* pix.findCharge(request.txid)).toEqual(
          Option.some({ txid: request.txid, status: "removed", amount: 2_000, pix: [] })
        )
        expect((yield* pay(qrCode)).status).toBe(409)

        // The PSP alters no charge that is not ATIVA: the adapter reads it back, removed, and is done.
        const before = exchanges.apiCalls.length
        yield* charges.remove(request.txid)
        expect(exchanges.apiCalls.slice(before)).toEqual(["PATCH /cobv/… 400", "GET /cobv/… 200"])
      })
    )
  )

  it.live("fails with PixProviderRefused for a charge paid meanwhile, or one the PSP does not have", () =>
    withProvider(
      Effect.gen(function* () {
        const charges = yield* dueCharges
        const request = dueChargeRequest()
        const { qrCode } = yield* charges.charge(request)
        expect((yield* pay(qrCode)).status).toBe(201)
        expect(yield* Effect.flip(charges.remove(request.txid))).toMatchObject({
          _tag: "PixProviderRefused",
          reason: expect.stringContaining("(cobv.status: A cobrança está CONCLUIDA.)")
        })
        expect(exchanges.apiCalls.slice(-2)).toEqual(["PATCH /cobv/… 400", "GET /cobv/… 200"])

        const unknown = dueChargeRequest().txid
        const refused = yield* Effect.flip(charges.remove(unknown))
        expect(refused).toMatchObject({ _tag: "PixProviderRefused", reason: expect.stringContaining(unknown) })
        expect(refused.message).toMatch(/^the PSP refused PATCH \/cobv\/\w+ \(404\): /)
      })
    )
  )
})

describe("a PSP that does not answer", () => {
  /** Runs `call` and expects it to fail with PixProviderUnavailable, logged as a warning: its message. */
  const unavailable = <A>(
    call: Effect.Effect<A, PixProviderFailure, PixProvider>,
    settings = settingsOf(psp, { timeout: Duration.millis(400) })
  ) => {
    const warnings: Array<string> = []
    const logger = Logger.layer([
      Logger.make(({ logLevel, message }) => {
        if (logLevel === "Warn") warnings.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
      })
    ])
    return withProvider(Effect.flip(call), settings).pipe(
      Effect.provide(logger),
      Effect.map((error) => {
        expect(error._tag).toBe("PixProviderUnavailable")
        expect(warnings).toEqual([expect.stringContaining(error.message)])
        return error.message
      })
    )
  }

  it.live("slower than the timeout: each call is unavailable, saying which", () =>
    Effect.gen(function* () {
      yield* psp.switches.change({ slowMs: 5_000 })
      const charge = Effect.flatMap(dueCharges, (charges) => charges.charge(dueChargeRequest()))
      expect(yield* unavailable(charge)).toMatch(/^the PSP did not answer PUT \/cobv\/\w+ within 400 ms$/)
      const remove = Effect.flatMap(dueCharges, (charges) => charges.remove(dueChargeRequest().txid))
      expect(yield* unavailable(remove)).toMatch(/^the PSP did not answer PATCH \/cobv\/\w+ within 400 ms$/)
    })
  )

  it.live("failing (503): each call is unavailable, with what the PSP said", () =>
    Effect.gen(function* () {
      yield* psp.switches.change({ failing: true })
      const charge = Effect.flatMap(dueCharges, (charges) => charges.charge(dueChargeRequest()))
      expect(yield* unavailable(charge)).toMatch(/^the PSP answered PUT \/cobv\/\w+ with 503 Serviço Indisponível/)
      const remove = Effect.flatMap(dueCharges, (charges) => charges.remove(dueChargeRequest().txid))
      expect(yield* unavailable(remove)).toMatch(/^the PSP answered PATCH \/cobv\/\w+ with 503 Serviço Indisponível/)
    })
  )

  it.live("nothing listening: unavailable at once", () =>
    Effect.gen(function* () {
      // A port taken from the system, then let go.
      const port = yield* Effect.promise(
        () =>
          new Promise<number>((resolve) => {
            const server = createServer()
            server.listen(0, "127.0.0.1", () => {
              const address = server.address()
              server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
            })
          })
      )
      const url = `https://127.0.0.1:${port}`
      const remove = Effect.flatMap(dueCharges, (charges) => charges.remove(dueChargeRequest().txid))
      expect(yield* unavailable(remove, settingsOf(psp, { apiUrl: url, oauthUrl: `${url}/oauth/token` }))).toMatch(
        /^could not reach the PSP for POST \/oauth\/token: .*ECONNREFUSED/
      )
    })
  )
})
