// The contract the other tests rely on: the vendored document is the Central Bank's 2.9.0, unmodified; each of its
// errata still corrects something there (when a new release fixes one, it goes); and it refuses what it should, for
// immediate charges and charges with a due date alike, their locations included.
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { load } from "js-yaml"
import { beforeAll, describe, expect, it } from "vitest"
import { ApiPixContract, errata, type HttpExchange, specFile } from "./support/ApiPixContract.js"

const json = { "content-type": "application/json" }
const problemJson = { "content-type": "application/problem+json" }
const txid = "fatura0123456789abcdef012345"

const goodCharge = {
  calendario: { criacao: "2026-01-01T12:00:00.000Z", expiracao: 3600 },
  txid,
  revisao: 0,
  loc: {
    id: 1,
    location: "127.0.0.1:8443/qr/v2/0123456789abcdef0123456789abcdef",
    tipoCob: "cob",
    criacao: "2026-01-01T12:00:00.000Z",
    txid
  },
  location: "127.0.0.1:8443/qr/v2/0123456789abcdef0123456789abcdef",
  status: "ATIVA",
  devedor: { cpf: "12345678909", nome: "Fulana" },
  valor: { original: "10.00" },
  chave: "key",
  pixCopiaECola: "000201"
}

const token = "0123456789abcdef0123456789abcdef"
const recebedor = {
  cnpj: "12345678000195",
  nome: "Loja",
  logradouro: "Avenida Paulista, 1000",
  cidade: "São Paulo",
  uf: "SP",
  cep: "01310100"
}

const goodDueCharge = {
  calendario: { criacao: "2026-01-01T12:00:00.000Z", dataDeVencimento: "2026-01-31", validadeAposVencimento: 0 },
  txid,
  revisao: 0,
  loc: {
    id: 2,
    location: `127.0.0.1:8443/qr/v2/cobv/${token}`,
    tipoCob: "cobv",
    criacao: "2026-01-01T12:00:00.000Z",
    txid
  },
  location: `127.0.0.1:8443/qr/v2/cobv/${token}`,
  status: "ATIVA",
  devedor: { cnpj: "11222333000181", nome: "Fulana Ltda" },
  recebedor,
  valor: { original: "10.00" },
  chave: "key",
  pixCopiaECola: "000201"
}

const duePayload = {
  calendario: {
    criacao: "2026-01-01T12:00:00.000Z",
    apresentacao: "2026-01-02T12:00:00.000Z",
    dataDeVencimento: "2026-01-31",
    validadeAposVencimento: 0
  },
  devedor: { cnpj: "11222333000181", nome: "Fulana Ltda" },
  recebedor,
  txid,
  revisao: 0,
  status: "ATIVA",
  valor: { original: "10.00", final: "10.00" },
  chave: "key"
}

/** A compact JWS of `payload`, as a location serves it (the signature is not the contract's to check). */
const jws = (payload: unknown) =>
  ["{}", JSON.stringify(payload), "signature"].map((part) => Buffer.from(part).toString("base64url")).join(".")

const getCharge = (status: number, body: unknown, headers: Record<string, string> = json): HttpExchange => ({
  method: "GET",
  target: `/cob/${txid}`,
  requestHeaders: {},
  status,
  responseHeaders: headers,
  responseBody: JSON.stringify(body)
})

describe("the API Pix contract", () => {
  let contract: ApiPixContract

  beforeAll(async () => {
    contract = await ApiPixContract.load()
  })

  it("is the Central Bank's document of release 2.9.0, byte for byte", () => {
    const text = readFileSync(specFile)
    expect(createHash("sha256").update(text).digest("hex")).toBe(
      "4047ae07a639dea4c13cdb60f79e2b849b4825aa6ebebbe96938b9a22d9f1ca8"
    )
    expect((load(text.toString("utf8")) as { info: { version: string } }).info.version).toBe("2.9.0")
  })

  it.each(errata.map((erratum) => [erratum.defect, erratum] as const))("still needs its erratum: %s", (_, erratum) => {
    const document = load(readFileSync(specFile, "utf8")) as Record<string, unknown>
    expect(erratum.correct(document)).toBeGreaterThan(0)
  })

  it("takes a right answer, and names what is wrong in a wrong one", () => {
    expect(contract.check(getCharge(200, goodCharge))).toEqual([])
    expect(contract.check(getCharge(200, { ...goodCharge, status: "PAGA" }))).toEqual([
      expect.stringMatching(/answer: \/status must be equal to one of the allowed values/)
    ])
    expect(contract.check(getCharge(200, { ...goodCharge, valor: { original: 10 } }))).not.toEqual([])
    expect(contract.check(getCharge(418, {}))).toEqual([expect.stringMatching(/status 418 is not documented/)])
    expect(contract.check(getCharge(404, { type: "x", title: "y", status: 404 }, json))).toEqual([
      expect.stringMatching(/media type "application\/json" is not documented for 404/)
    ])
    expect(contract.check(getCharge(404, { title: "no type" }, problemJson))).not.toEqual([])
    expect(contract.check({ ...getCharge(200, goodCharge), target: "/nowhere/at/all" })).toEqual([
      expect.stringMatching(/no operation of the API Pix document/)
    ])
  })

  it("checks requests, and the webhook's notifications", () => {
    const put: HttpExchange = {
      method: "PUT",
      target: `/cob/${txid}`,
      requestHeaders: json,
      requestBody: JSON.stringify({ calendario: {}, valor: { original: "10" }, chave: "key" }),
      status: 201,
      responseHeaders: json,
      responseBody: JSON.stringify(goodCharge)
    }
    expect(contract.check(put)).toEqual([expect.stringMatching(/request: .*valor\/original must match pattern/)])
    expect(
      contract.checkNotification({
        pix: [{ endToEndId: "E".padEnd(32, "0"), valor: "1.00", horario: "2026-01-01T00:00:00Z" }]
      })
    ).toEqual([])
    expect(contract.checkNotification({ pix: [{ endToEndId: "short", valor: "1.00" }] })).not.toEqual([])
  })

  it("checks charges with a due date, and matches their locations to the cobv payload, not to GET /cobv/{txid}", () => {
    const put: HttpExchange = {
      method: "PUT",
      target: `/cobv/${txid}`,
      requestHeaders: json,
      requestBody: JSON.stringify({
        calendario: { dataDeVencimento: "2026-01-31", validadeAposVencimento: 0 },
        devedor: { cnpj: "11222333000181", nome: "Fulana Ltda" },
        valor: { original: "10.00" },
        chave: "key"
      }),
      status: 201,
      responseHeaders: json,
      responseBody: JSON.stringify(goodDueCharge)
    }
    expect(contract.check(put)).toEqual([])
    const { recebedor: _recebedor, ...withoutReceiver } = goodDueCharge
    expect(contract.check({ ...put, responseBody: JSON.stringify(withoutReceiver) })).toEqual([
      expect.stringMatching(/answer: \(root\) must have required property 'recebedor'/)
    ])
    expect(
      contract.check({
        ...put,
        requestBody: JSON.stringify({ calendario: {}, valor: { original: "1.00" }, chave: "k" })
      })
    ).not.toEqual([])

    const location: HttpExchange = {
      method: "GET",
      target: `/qr/v2/cobv/${token}?DPP=2026-01-20`,
      requestHeaders: {},
      status: 200,
      responseHeaders: { "content-type": "application/jose" },
      responseBody: jws(duePayload)
    }
    expect(contract.check(location)).toEqual([])
    expect(contract.checked.at(-1)).toBe("GET /cobv/{pixUrlAccessToken} 200")
    const { valor: _valor, ...withoutAmount } = duePayload
    expect(contract.check({ ...location, responseBody: jws(withoutAmount) })).toEqual([
      expect.stringMatching(/answer: \(root\) must have required property 'valor'/)
    ])
  })
})
