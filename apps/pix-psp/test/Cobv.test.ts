// Charges with a due date: create, repeat, revise, read; one txid for one charge, whatever its kind; what the spec
// refuses; the dynamic pix code a charge carries and the signed payload its location serves. Every exchange is held to
// the API Pix document.
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from "jose"
import { hasError, isDynamicPix, parsePix } from "pix-utils"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { ApiPixClient } from "./support/ApiPixClient.js"
import { ApiPixContract } from "./support/ApiPixContract.js"
import { chargeRequest, dueChargeRequest, newTxid, saoPauloDay } from "./support/Charges.js"
import { startPsp, type TestPsp } from "./support/TestPsp.js"

describe("charges with a due date (cobv)", () => {
  let contract: ApiPixContract
  let psp: TestPsp
  let client: ApiPixClient
  let payer: ApiPixClient
  let chave: string

  beforeAll(async () => {
    contract = await ApiPixContract.load()
    psp = await startPsp()
    client = await psp.authenticatedClient(contract)
    // The payer's app reaches the location with no client certificate.
    payer = psp.anonymousClient(contract)
    chave = psp.state.credentials.pixKey
  })
  afterEach(() => {
    expect(contract.problems).toEqual([])
  })
  afterAll(async () => {
    try {
      // The document held the cobv operations and its location, not only the immediate charges'.
      expect(contract.checked).toEqual(
        expect.arrayContaining([
          "PUT /cobv/{txid} 201",
          "PUT /cobv/{txid} 400",
          "GET /cobv/{txid} 200",
          "GET /cobv/{txid} 404",
          "GET /cobv/{pixUrlAccessToken} 200",
          "GET /cobv/{pixUrlAccessToken} 400",
          "GET /cobv/{pixUrlAccessToken} 404"
        ])
      )
    } finally {
      client?.close()
      payer?.close()
      await psp?.stop()
    }
  })

  /** A new charge with a due date: its txid and the PSP's answer. */
  const newDueCharge = async (options?: Parameters<typeof dueChargeRequest>[1]) => {
    const txid = newTxid()
    const created = await client.put(`/cobv/${txid}`, dueChargeRequest(chave, options))
    expect(created.status).toBe(201)
    return { txid, charge: created.json() }
  }

  it("creates a charge ATIVA, payable 30 days past its due date unless said, with a dynamic code for its location", async () => {
    const dataDeVencimento = saoPauloDay(10)
    const { txid, charge } = await newDueCharge({ dataDeVencimento })
    expect(charge).toMatchObject({
      txid,
      revisao: 0,
      status: "ATIVA",
      calendario: { dataDeVencimento, validadeAposVencimento: 30 },
      devedor: { cpf: "12345678909", nome: "Fulana de Tal" },
      recebedor: {
        cnpj: "12345678000195",
        nome: "Fatura Teste",
        logradouro: "Avenida Paulista, 1000",
        cidade: "São Paulo",
        uf: "SP",
        cep: "01310100"
      },
      valor: { original: "150.00" },
      chave,
      solicitacaoPagador: "Boleto 1234 da Loja Exemplo",
      loc: { tipoCob: "cobv", txid }
    })
    expect(charge.location).toMatch(/^127\.0\.0\.1:\d+\/qr\/v2\/cobv\/[0-9a-f]{32}$/)
    expect(charge.loc.location).toBe(charge.location)

    const code = parsePix(charge.pixCopiaECola)
    if (hasError(code) || !isDynamicPix(code)) throw new Error(`not a dynamic pix code: ${JSON.stringify(code)}`)
    expect(code.url).toBe(charge.location)
    expect(charge.pixCopiaECola.startsWith("000201010212")).toBe(true)

    const validity = await newDueCharge({ validadeAposVencimento: 0 })
    expect(validity.charge.calendario.validadeAposVencimento).toBe(0)
  })

  it("answers a repeated PUT with the same terms with the charge as it is, and revises it when they change", async () => {
    const dataDeVencimento = saoPauloDay(10)
    const { txid, charge } = await newDueCharge({ dataDeVencimento, original: "150.00" })
    const again = await client.put(`/cobv/${txid}`, dueChargeRequest(chave, { dataDeVencimento, original: "150.00" }))
    expect(again.status).toBe(201)
    expect(again.json()).toEqual(charge)

    const revised = await client.put(`/cobv/${txid}`, dueChargeRequest(chave, { dataDeVencimento, original: "99.90" }))
    expect(revised.status).toBe(201)
    expect(revised.json()).toMatchObject({ revisao: 1, valor: { original: "99.90" }, location: charge.location })
    expect((await client.get(`/cobv/${txid}?revisao=0`)).json()).toMatchObject({
      revisao: 0,
      valor: { original: "150.00" }
    })
  })

  it("reads a charge back, and answers 404 CobVNaoEncontrada for a txid it does not know", async () => {
    const { txid, charge } = await newDueCharge()
    const read = await client.get(`/cobv/${txid}`)
    expect(read.status).toBe(200)
    expect(read.json()).toEqual(charge)
    const unknown = await client.get(`/cobv/${newTxid()}`)
    expect(unknown.status).toBe(404)
    expect(unknown.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/CobVNaoEncontrada" })
  })

  it("keeps one charge per txid: a cob's txid is refused to a cobv, and a cobv's to a cob", async () => {
    const { txid: dueTxid } = await newDueCharge()
    expect((await client.get(`/cob/${dueTxid}`)).status).toBe(404)
    const asCob = await client.put(`/cob/${dueTxid}`, chargeRequest(chave))
    expect(asCob.status).toBe(400)
    expect(asCob.json()).toMatchObject({
      type: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida",
      violacoes: [{ propriedade: "txid", razao: expect.stringContaining("cobrança com vencimento") }]
    })

    const cobTxid = newTxid()
    expect((await client.put(`/cob/${cobTxid}`, chargeRequest(chave))).status).toBe(201)
    expect((await client.get(`/cobv/${cobTxid}`)).status).toBe(404)
    const asCobv = await client.put(`/cobv/${cobTxid}`, dueChargeRequest(chave))
    expect(asCobv.status).toBe(400)
    expect(asCobv.json()).toMatchObject({
      type: "https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida",
      violacoes: [{ propriedade: "txid", razao: expect.stringContaining("cobrança imediata") }]
    })
    expect((await client.get(`/cob/${cobTxid}`)).json().status).toBe("ATIVA")
  })

  it("refuses a due date before today, another's key, a fine or interest, naming the property", async () => {
    const refusedFor = async (body: unknown) => {
      const answer = await client.put(`/cobv/${newTxid()}`, body)
      expect(answer.status).toBe(400)
      expect(answer.json().type).toBe("https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida")
      return answer.json().violacoes.map((violation: { propriedade: string }) => violation.propriedade)
    }
    expect(await refusedFor(dueChargeRequest(chave, { dataDeVencimento: saoPauloDay(-1) }))).toEqual([
      "cobv.calendario.dataDeVencimento"
    ])
    expect(await refusedFor(dueChargeRequest("someone-else@example.com"))).toEqual(["cobv.chave"])
    expect(await refusedFor(dueChargeRequest(chave, { original: "0.00" }))).toEqual(["cobv.valor.original"])
    const withFine = dueChargeRequest(chave)
    expect(
      await refusedFor({ ...withFine, valor: { ...withFine.valor, multa: { modalidade: 2, valorPerc: "2.00" } } })
    ).toEqual(["cobv.valor.multa"])
    // Due today, and payable today only: taken.
    await newDueCharge({ dataDeVencimento: saoPauloDay(0), validadeAposVencimento: 0 })
  })

  it("refuses what the document's schema refuses (checked without the contract, which would flag the request)", async () => {
    const unchecked = psp.client()
    await unchecked.authenticate(psp.state.credentials.clientId, psp.state.credentials.clientSecret)
    const good = dueChargeRequest(chave)
    const violationsOf = async (txid: string, body: unknown) => {
      const answer = await unchecked.put(`/cobv/${txid}`, body)
      expect(answer.status).toBe(400)
      expect(answer.json().type).toBe("https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida")
      return answer.json().violacoes.map((violation: { propriedade: string }) => violation.propriedade)
    }
    expect(await violationsOf("tooshort", good)).toEqual(["txid"])
    const { devedor: _devedor, ...withoutDebtor } = good
    expect(await violationsOf(newTxid(), withoutDebtor)).toEqual(["cobv.devedor"])
    expect(await violationsOf(newTxid(), { ...good, devedor: { nome: "Sem Documento" } })).toEqual(["cobv.devedor"])
    expect(
      await violationsOf(newTxid(), { ...good, devedor: { cpf: "12345678909", cnpj: "12345678000195", nome: "Ambos" } })
    ).toEqual(["cobv.devedor"])
    expect(await violationsOf(newTxid(), { ...good, calendario: { dataDeVencimento: "2030-02-30" } })).toEqual([
      "cobv.calendario.dataDeVencimento"
    ])
    expect(await violationsOf(newTxid(), { ...good, calendario: {} })).toEqual(["cobv.calendario.dataDeVencimento"])
    expect(
      await violationsOf(newTxid(), {
        ...good,
        calendario: { ...good.calendario, validadeAposVencimento: -1 }
      })
    ).toEqual(["cobv.calendario.validadeAposVencimento"])
    expect(await violationsOf(newTxid(), { ...good, valor: { original: "150" } })).toEqual(["cobv.valor.original"])
    unchecked.close()
  })

  /** The payload a location serves, verified with the PSP's JWKS. */
  const verifiedPayload = async (location: string, query = "") => {
    const answer = await payer.get(`https://${location}${query}`, { bearer: null })
    expect(answer.status).toBe(200)
    expect(answer.headers["content-type"]).toMatch(/^application\/jose/)
    const header = decodeProtectedHeader(answer.text)
    const jwks = (await payer.get(String(header.jku), { bearer: null })).json()
    const { payload } = await compactVerify(answer.text, createLocalJWKSet(jwks))
    return JSON.parse(new TextDecoder().decode(payload))
  }

  it("serves the charge at its location as a JWS with its due date, its final amount and the receiver", async () => {
    const dataDeVencimento = saoPauloDay(5)
    const { txid, charge } = await newDueCharge({ dataDeVencimento, validadeAposVencimento: 2, original: "123.45" })
    const payload = await verifiedPayload(charge.location)
    expect(payload).toEqual({
      txid,
      revisao: 0,
      status: "ATIVA",
      calendario: {
        criacao: charge.calendario.criacao,
        apresentacao: expect.any(String),
        dataDeVencimento,
        validadeAposVencimento: 2
      },
      devedor: { cpf: "12345678909", nome: "Fulana de Tal" },
      recebedor: charge.recebedor,
      valor: { original: "123.45", final: "123.45" },
      chave,
      solicitacaoPagador: "Boleto 1234 da Loja Exemplo"
    })
    // The day the payer means to pay and where: any day it can still be paid.
    expect((await verifiedPayload(charge.location, `?DPP=${saoPauloDay(7)}&codMun=3550308`)).txid).toBe(txid)
  })

  it("answers 400 at a location for a day the charge cannot be paid, and 404 for a token of the other kind", async () => {
    const { charge } = await newDueCharge({ dataDeVencimento: saoPauloDay(1), validadeAposVencimento: 1 })
    for (const day of [saoPauloDay(3), saoPauloDay(-1)]) {
      const answer = await payer.get(`https://${charge.location}?DPP=${day}`, { bearer: null })
      expect(answer.status).toBe(400)
      expect(answer.json()).toMatchObject({
        type: "https://pix.bcb.gov.br/api/v2/error/CobPayloadOperacaoInvalida",
        violacoes: [{ propriedade: "DPP", valor: day }]
      })
    }
    const token = charge.location.split("/").at(-1)
    expect((await payer.get(`/qr/v2/${token}`, { bearer: null })).status).toBe(404)
    const cob = (await client.put(`/cob/${newTxid()}`, chargeRequest(chave))).json()
    const cobToken = cob.location.split("/").at(-1)
    const answer = await payer.get(`/qr/v2/cobv/${cobToken}`, { bearer: null })
    expect(answer.status).toBe(404)
    expect(answer.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/CobPayloadNaoEncontrado" })
  })
})
