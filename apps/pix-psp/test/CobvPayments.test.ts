// Charges with a due date once made: paid by the simulator (by txid or by their pix copia e cola) until their last
// payable day in São Paulo, the pix they receive carrying their txid everywhere a pix is told; removed by PATCH while
// ATIVA, and then never paid. Every exchange, and every notification, is held to the API Pix document.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type Charge, type CobvTerms, isPayable } from "../src/Charges.js"
import type { ApiPixClient } from "./support/ApiPixClient.js"
import { ApiPixContract } from "./support/ApiPixContract.js"
import { dueChargeRequest, newTxid } from "./support/Charges.js"
import { eventually } from "./support/Eventually.js"
import { startPsp, type TestPsp } from "./support/TestPsp.js"
import { WebhookReceiver } from "./support/WebhookReceiver.js"

const removal = { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" }

describe("paying and removing charges with a due date", () => {
  let contract: ApiPixContract
  let psp: TestPsp
  let client: ApiPixClient
  let webhook: WebhookReceiver
  let chave: string

  beforeAll(async () => {
    contract = await ApiPixContract.load()
    psp = await startPsp()
    client = await psp.authenticatedClient(contract)
    chave = psp.state.credentials.pixKey
    webhook = await WebhookReceiver.start(contract)
    expect((await client.put(`/webhook/${chave}`, { webhookUrl: webhook.url })).status).toBe(200)
  })
  afterEach(() => {
    expect(contract.problems).toEqual([])
  })
  afterAll(async () => {
    try {
      expect(contract.checked).toEqual(
        expect.arrayContaining(["PATCH /cobv/{txid} 200", "PATCH /cobv/{txid} 400", "PATCH /cobv/{txid} 404"])
      )
    } finally {
      client?.close()
      await webhook?.close()
      await psp?.stop()
    }
  })

  const newDueCharge = async (original = "80.00") => {
    const txid = newTxid()
    const request = dueChargeRequest(chave, { original })
    const created = await client.put(`/cobv/${txid}`, request)
    expect(created.status).toBe(201)
    return { txid, request, charge: created.json() }
  }

  it("is paid by txid: CONCLUIDA, its pix read back, listed and notified with its txid", async () => {
    const { txid } = await newDueCharge("80.00")
    const inicio = new Date(Date.now() - 1).toISOString()
    const paid = await client.post("/simulator/pay", { txid })
    expect(paid.status).toBe(201)
    const { pix, charge } = paid.json()
    expect(charge).toEqual({ txid, status: "CONCLUIDA" })
    expect(pix).toMatchObject({ txid, valor: "80.00", chave })

    expect((await client.get(`/pix/${pix.endToEndId}`)).json()).toMatchObject({ endToEndId: pix.endToEndId, txid })
    const fim = new Date(Date.now() + 1).toISOString()
    const listed = await client.get(
      `/pix?inicio=${encodeURIComponent(inicio)}&fim=${encodeURIComponent(fim)}&txid=${txid}`
    )
    expect(listed.json().pix).toEqual([expect.objectContaining({ endToEndId: pix.endToEndId, txid, valor: "80.00" })])
    const notified = await eventually(`the webhook to hear of ${pix.endToEndId}`, () =>
      webhook.notifiedPix.find((one) => one.endToEndId === pix.endToEndId)
    )
    expect(notified).toMatchObject({ txid, valor: "80.00" })

    const read = (await client.get(`/cobv/${txid}`)).json()
    expect(read).toMatchObject({ status: "CONCLUIDA", pix: [{ endToEndId: pix.endToEndId, txid, valor: "80.00" }] })
    expect((await client.post("/simulator/pay", { txid })).status).toBe(409)
  })

  it("is paid by its pix copia e cola, as a payer's app reads it", async () => {
    const { txid, charge } = await newDueCharge("12.34")
    const paid = await client.post("/simulator/pay", { pixCopiaECola: charge.pixCopiaECola })
    expect(paid.status).toBe(201)
    expect(paid.json()).toMatchObject({ pix: { txid, valor: "12.34" }, charge: { txid, status: "CONCLUIDA" } })
  })

  it("is removed by PATCH while ATIVA, a revision of it, and then cannot be paid", async () => {
    const { txid, request, charge } = await newDueCharge()
    const removed = await client.patch(`/cobv/${txid}`, removal)
    expect(removed.status).toBe(200)
    expect(removed.json()).toMatchObject({ txid, revisao: 1, status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" })
    expect((await client.get(`/cobv/${txid}`)).json()).toMatchObject({ status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" })
    const refused = await client.post("/simulator/pay", { pixCopiaECola: charge.pixCopiaECola })
    expect(refused.status).toBe(409)
    expect(refused.json().detail).toMatch(/REMOVIDA_PELO_USUARIO_RECEBEDOR/)
    // The same terms asked again are answered with the charge as it is; other terms are refused.
    const again = await client.put(`/cobv/${txid}`, request)
    expect([again.status, again.json().status]).toEqual([201, "REMOVIDA_PELO_USUARIO_RECEBEDOR"])
    const revised = await client.put(`/cobv/${txid}`, { ...request, valor: { original: "70.00" } })
    expect(revised.status).toBe(400)
    expect(revised.json().violacoes).toEqual([
      expect.objectContaining({ propriedade: "cobv.status", valor: "REMOVIDA_PELO_USUARIO_RECEBEDOR" })
    ])
  })

  it("refuses a PATCH of a charge no longer ATIVA, paid or removed, with its status", async () => {
    const { txid: paidTxid } = await newDueCharge()
    await client.post("/simulator/pay", { txid: paidTxid })
    const { txid: removedTxid } = await newDueCharge()
    expect((await client.patch(`/cobv/${removedTxid}`, removal)).status).toBe(200)
    for (const [txid, status] of [
      [paidTxid, "CONCLUIDA"],
      [removedTxid, "REMOVIDA_PELO_USUARIO_RECEBEDOR"]
    ] as const) {
      const refused = await client.patch(`/cobv/${txid}`, removal)
      expect(refused.status).toBe(400)
      expect(refused.json()).toMatchObject({
        type: "https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida",
        violacoes: [{ propriedade: "cobv.status", valor: status }]
      })
    }
    expect((await client.get(`/cobv/${paidTxid}`)).json().status).toBe("CONCLUIDA")
  })

  it("answers 404 to a PATCH of a txid it does not know, and 400 to anything but a removal alone", async () => {
    const unknown = await client.patch(`/cobv/${newTxid()}`, removal)
    expect(unknown.status).toBe(404)
    expect(unknown.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/CobVNaoEncontrada" })
    const { txid } = await newDueCharge()
    for (const [body, propriedade] of [
      [{ ...removal, solicitacaoPagador: "Outra" }, "cobv.solicitacaoPagador"],
      [{ solicitacaoPagador: "Outra" }, "cobv"]
    ] as const) {
      const refused = await client.patch(`/cobv/${txid}`, body)
      expect(refused.status).toBe(400)
      expect(refused.json().violacoes).toEqual([expect.objectContaining({ propriedade })])
    }
    expect((await client.get(`/cobv/${txid}`)).json()).toMatchObject({ status: "ATIVA", revisao: 0 })
  })
})

describe("when a charge with a due date can be paid", () => {
  const charge = (dataDeVencimento: string, validadeAposVencimento: number): Charge<CobvTerms> => ({
    txid: newTxid(),
    criacao: Date.parse("2026-03-01T12:00:00Z"),
    status: "ATIVA",
    revisions: [
      {
        kind: "cobv",
        dataDeVencimento,
        validadeAposVencimento,
        devedor: { cpf: "12345678909", nome: "Fulana de Tal" },
        original: 8_000,
        chave: "key"
      }
    ],
    location: { id: 1, token: "0".repeat(32), criacao: Date.parse("2026-03-01T12:00:00Z") }
  })

  it("until its due date ends in São Paulo (UTC−3), with no validity after it", () => {
    const due = charge("2026-03-10", 0)
    expect(isPayable(due, Date.parse("2026-03-10T03:00:00Z"))).toBe(true)
    expect(isPayable(due, Date.parse("2026-03-11T02:59:59.999Z"))).toBe(true)
    expect(isPayable(due, Date.parse("2026-03-11T03:00:00Z"))).toBe(false)
  })

  it("until the last of its days of validity after the due date, and never once it is not ATIVA", () => {
    const due = charge("2026-12-30", 3)
    expect(isPayable(due, Date.parse("2027-01-02T12:00:00Z"))).toBe(true)
    expect(isPayable(due, Date.parse("2027-01-03T02:59:59Z"))).toBe(true)
    expect(isPayable(due, Date.parse("2027-01-03T03:00:00Z"))).toBe(false)
    expect(isPayable({ ...due, status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" }, Date.parse("2026-12-01T12:00:00Z"))).toBe(
      false
    )
  })
})
