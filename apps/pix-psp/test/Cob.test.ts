// Immediate charges: create, repeat, revise, read; the dynamic pix code a charge carries; the signed payload its
// location serves. Every exchange is held to the API Pix document.
import { X509Certificate } from "node:crypto"
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from "jose"
import { hasError, isDynamicPix, parsePix } from "pix-utils"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { ApiPixClient } from "./support/ApiPixClient.js"
import { ApiPixContract } from "./support/ApiPixContract.js"
import { chargeRequest, newTxid } from "./support/Charges.js"
import { startPsp, type TestPsp } from "./support/TestPsp.js"

describe("immediate charges (cob)", () => {
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
    client?.close()
    payer?.close()
    await psp?.stop()
  })

  it("creates a charge ATIVA with its location and a dynamic pix code pointing at it", async () => {
    const txid = newTxid()
    const created = await client.put(`/cob/${txid}`, chargeRequest(chave))
    expect(created.status).toBe(201)
    const charge = created.json()
    expect(charge).toMatchObject({
      txid,
      revisao: 0,
      status: "ATIVA",
      calendario: { expiracao: 3600 },
      devedor: { cpf: "12345678909", nome: "Fulana de Tal" },
      valor: { original: "37.00" },
      chave,
      loc: { tipoCob: "cob" }
    })
    expect(charge.location).toMatch(/^127\.0\.0\.1:\d+\/qr\/v2\/[0-9a-f]{32}$/)
    expect(charge.loc.location).toBe(charge.location)
    expect(Date.parse(charge.calendario.criacao)).not.toBeNaN()

    const code = parsePix(charge.pixCopiaECola)
    if (hasError(code) || !isDynamicPix(code)) throw new Error(`not a dynamic pix code: ${JSON.stringify(code)}`)
    expect(code.url).toBe(charge.location)
    expect(code).toMatchObject({
      merchantCategoryCode: "0000",
      transactionCurrency: "986",
      countryCode: "BR",
      merchantName: "Fatura Teste",
      merchantCity: "Sao Paulo"
    })
    expect(charge.pixCopiaECola).toContain("0014br.gov.bcb.pix")
    expect(charge.pixCopiaECola).toContain("62070503***")
  })

  it("answers a repeated PUT with the same terms with the charge as it is, as a retry needs", async () => {
    const txid = newTxid()
    const first = (await client.put(`/cob/${txid}`, chargeRequest(chave))).json()
    const again = await client.put(`/cob/${txid}`, chargeRequest(chave))
    expect(again.status).toBe(201)
    expect(again.json()).toEqual(first)
  })

  it("revises an ATIVA charge whose terms change, keeping its location, and keeps every revision", async () => {
    const txid = newTxid()
    const first = (await client.put(`/cob/${txid}`, chargeRequest(chave, "37.00"))).json()
    const revised = await client.put(`/cob/${txid}`, chargeRequest(chave, "40.00"))
    expect(revised.status).toBe(201)
    expect(revised.json()).toMatchObject({ revisao: 1, valor: { original: "40.00" }, location: first.location })
    expect((await client.get(`/cob/${txid}`)).json()).toMatchObject({ revisao: 1, valor: { original: "40.00" } })
    expect((await client.get(`/cob/${txid}?revisao=0`)).json()).toMatchObject({
      revisao: 0,
      valor: { original: "37.00" }
    })
  })

  it("refuses new terms for a charge no longer ATIVA, and still answers the same terms with the charge", async () => {
    const txid = newTxid()
    await client.put(`/cob/${txid}`, chargeRequest(chave))
    expect((await client.post("/simulator/pay", { txid })).status).toBe(201)
    const refused = await client.put(`/cob/${txid}`, chargeRequest(chave, "99.00"))
    expect(refused.status).toBe(400)
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/)
    expect(refused.json()).toMatchObject({
      type: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida",
      status: 400,
      violacoes: [{ propriedade: "cob.status", valor: "CONCLUIDA" }]
    })
    const repeated = await client.put(`/cob/${txid}`, chargeRequest(chave))
    expect(repeated.status).toBe(201)
    expect(repeated.json()).toMatchObject({ status: "CONCLUIDA", valor: { original: "37.00" } })
  })

  it("answers GET /cob/{txid}, and 404 CobNaoEncontrado for a txid it does not know", async () => {
    const txid = newTxid()
    const created = (await client.put(`/cob/${txid}`, chargeRequest(chave))).json()
    const read = await client.get(`/cob/${txid}`)
    expect(read.status).toBe(200)
    expect(read.json()).toEqual(created)
    const unknown = await client.get(`/cob/${newTxid()}`)
    expect(unknown.status).toBe(404)
    expect(unknown.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado", status: 404 })
  })

  it("refuses a charge for a pix key that is not the client's, naming the property", async () => {
    const refused = await client.put(`/cob/${newTxid()}`, chargeRequest("someone-else@example.com"))
    expect(refused.status).toBe(400)
    expect(refused.json()).toMatchObject({
      type: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida",
      violacoes: [{ propriedade: "cob.chave" }]
    })
  })

  it("refuses what the document's schema refuses (checked without the contract, which would flag the request)", async () => {
    const unchecked = psp.client()
    await unchecked.authenticate(psp.state.credentials.clientId, psp.state.credentials.clientSecret)
    const shortTxid = await unchecked.put("/cob/tooshort", chargeRequest(chave))
    expect(shortTxid.status).toBe(400)
    expect(shortTxid.json().violacoes).toEqual([expect.objectContaining({ propriedade: "txid" })])
    const badAmount = await unchecked.put(`/cob/${newTxid()}`, { ...chargeRequest(chave), valor: { original: "37" } })
    expect(badAmount.status).toBe(400)
    expect(badAmount.json().violacoes).toEqual([expect.objectContaining({ propriedade: "cob.valor.original" })])
    unchecked.close()
  })

  it("serves the charge at its location as a JWS that verifies against the PSP's JWKS", async () => {
    const txid = newTxid()
    const charge = (await client.put(`/cob/${txid}`, chargeRequest(chave, "123.45"))).json()
    const answer = await payer.get(`https://${charge.location}`, { bearer: null })
    expect(answer.status).toBe(200)
    expect(answer.headers["content-type"]).toMatch(/^application\/jose/)
    const header = decodeProtectedHeader(answer.text)
    expect(header).toMatchObject({ alg: "RS256" })
    expect(header.jku).toBe(`${psp.baseUrl}/.well-known/jwks.json`)

    const jwks = (await payer.get(String(header.jku), { bearer: null })).json()
    const { payload } = await compactVerify(answer.text, createLocalJWKSet(jwks))
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({
      txid,
      revisao: 0,
      status: "ATIVA",
      valor: { original: "123.45" },
      chave,
      devedor: { cpf: "12345678909", nome: "Fulana de Tal" },
      solicitacaoPagador: "Fatura 1234 da Loja Exemplo",
      calendario: { criacao: charge.calendario.criacao, expiracao: 3600 }
    })

    // The key's certificate, in the JWKS, is issued by the PSP's CA.
    const [jwk] = jwks.keys
    expect(jwk.kid).toBe(header.kid)
    const signer = new X509Certificate(Buffer.from(jwk.x5c[0], "base64"))
    expect(signer.verify(new X509Certificate(psp.state.ca.certificate).publicKey)).toBe(true)
  })

  it("answers 404 at a location where there is no charge", async () => {
    const answer = await payer.get("/qr/v2/00000000000000000000000000000000", { bearer: null })
    expect(answer.status).toBe(404)
    expect(answer.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/CobPayloadNaoEncontrado" })
  })
})
