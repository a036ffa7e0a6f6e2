// A payer pays (the simulator), the client's webhook hears of it, and the client reads the pix back, one by one or
// listed by period with the spec's pagination. Every exchange, and every notification, is held to the document.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { ApiPixClient } from "./support/ApiPixClient.js"
import { ApiPixContract } from "./support/ApiPixContract.js"
import { chargeRequest, newTxid } from "./support/Charges.js"
import { eventually } from "./support/Eventually.js"
import { startPsp, type TestPsp } from "./support/TestPsp.js"
import { WebhookReceiver } from "./support/WebhookReceiver.js"

describe("payments and their notifications", () => {
  let contract: ApiPixContract
  let psp: TestPsp
  let client: ApiPixClient
  let webhook: WebhookReceiver
  let chave: string

  /** A new charge of `original`, and its txid. */
  const newCharge = async (original = "37.00") => {
    const txid = newTxid()
    const created = await client.put(`/cob/${txid}`, chargeRequest(chave, original))
    expect(created.status).toBe(201)
    return { txid, charge: created.json() }
  }

  const notificationOf = (endToEndId: string) =>
    eventually(`the webhook to hear of ${endToEndId}`, () =>
      webhook.notifiedPix.find((pix) => pix.endToEndId === endToEndId)
    )

  beforeAll(async () => {
    contract = await ApiPixContract.load()
    psp = await startPsp()
    client = await psp.authenticatedClient(contract)
    chave = psp.state.credentials.pixKey
    webhook = await WebhookReceiver.start(contract)
  })
  afterEach(async () => {
    await psp.switches.change({ dropNotifications: false })
    expect(contract.problems).toEqual([])
  })
  afterAll(async () => {
    client?.close()
    await webhook?.close()
    await psp?.stop()
  })

  it("sets, shows and refuses webhooks as the spec says", async () => {
    expect((await client.put(`/webhook/${chave}`, { webhookUrl: webhook.url })).status).toBe(200)
    const shown = await client.get(`/webhook/${chave}`)
    expect(shown.status).toBe(200)
    expect(shown.json()).toMatchObject({ webhookUrl: webhook.url, chave, cnpj: "12345678000195" })
    const foreign = await client.put("/webhook/someone-else@example.com", { webhookUrl: webhook.url })
    expect(foreign.status).toBe(400)
    expect(foreign.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida" })
  })

  it("records a payment of the charge's amount, concludes the charge and notifies the webhook", async () => {
    const { txid } = await newCharge("37.00")
    const paid = await client.post("/simulator/pay", { txid, infoPagador: "Pedido 42" })
    expect(paid.status).toBe(201)
    const { pix, charge, notification } = paid.json()
    expect(charge).toEqual({ txid, status: "CONCLUIDA" })
    expect(notification).toBe("queued")
    expect(pix.endToEndId).toMatch(/^E99999999\d{12}[a-zA-Z0-9]{11}$/)
    expect(pix).toMatchObject({ txid, valor: "37.00", chave, infoPagador: "Pedido 42" })

    const notified = await notificationOf(pix.endToEndId)
    expect(notified).toMatchObject({ endToEndId: pix.endToEndId, txid, valor: "37.00", infoPagador: "Pedido 42" })
    expect(Date.parse(notified.horario)).not.toBeNaN()
    expect(webhook.deliveries.find((delivery) => delivery.body.pix?.[0]?.endToEndId === pix.endToEndId)?.path).toBe(
      "/webhook/pix"
    )

    // The notification is not signed: the client confirms it by asking the PSP.
    const confirmed = await client.get(`/pix/${pix.endToEndId}`)
    expect(confirmed.status).toBe(200)
    expect(confirmed.json()).toMatchObject({ endToEndId: pix.endToEndId, txid, valor: "37.00" })
    const read = (await client.get(`/cob/${txid}`)).json()
    expect(read.status).toBe("CONCLUIDA")
    expect(read.pix).toEqual([expect.objectContaining({ endToEndId: pix.endToEndId })])
  })

  it("pays a charge by its pix copia e cola, as a payer's app reads it", async () => {
    const { txid, charge } = await newCharge("12.34")
    const paid = await client.post("/simulator/pay", { pixCopiaECola: charge.pixCopiaECola })
    expect(paid.status).toBe(201)
    expect(paid.json()).toMatchObject({ pix: { txid, valor: "12.34" }, charge: { status: "CONCLUIDA" } })
  })

  it("records a wrong amount as paid but leaves the charge ATIVA, and still notifies", async () => {
    const { txid } = await newCharge("50.00")
    const paid = (await client.post("/simulator/pay", { txid, valor: "49.99" })).json()
    expect(paid).toMatchObject({ pix: { valor: "49.99" }, charge: { status: "ATIVA" } })
    expect(await notificationOf(paid.pix.endToEndId)).toMatchObject({ txid, valor: "49.99" })
    expect((await client.get(`/cob/${txid}`)).json()).toMatchObject({ status: "ATIVA", pix: [{ valor: "49.99" }] })
  })

  it("refuses to pay a charge that is no longer ATIVA, or one it does not know", async () => {
    const { txid } = await newCharge()
    await client.post("/simulator/pay", { txid })
    expect((await client.post("/simulator/pay", { txid })).status).toBe(409)
    expect((await client.post("/simulator/pay", { txid: newTxid() })).status).toBe(404)
    expect((await client.post("/simulator/pay", { pixCopiaECola: "000201" })).status).toBe(404)
  })

  it("retries a notification the webhook failed, until it is taken", async () => {
    const { txid } = await newCharge()
    webhook.failFor(txid, 2)
    const { pix } = (await client.post("/simulator/pay", { txid })).json()
    await notificationOf(pix.endToEndId)
    const attempts = webhook.deliveries.filter((delivery) => delivery.body.pix?.[0]?.endToEndId === pix.endToEndId)
    expect(attempts.map((attempt) => attempt.status)).toEqual([500, 500, 200])
  })

  it("records pix without notifying while dropNotifications is on", async () => {
    expect((await client.post("/simulator/switches", { dropNotifications: true })).json()).toMatchObject({
      dropNotifications: true
    })
    const dropped = (await client.post("/simulator/pay", { txid: (await newCharge()).txid })).json()
    expect(dropped.notification).toBe("dropped")
    expect((await client.get(`/pix/${dropped.pix.endToEndId}`)).status).toBe(200)

    await client.post("/simulator/switches", { dropNotifications: false })
    const notified = (await client.post("/simulator/pay", { txid: (await newCharge()).txid })).json()
    expect(notified.notification).toBe("queued")
    await notificationOf(notified.pix.endToEndId)
    // The dropped one was never sent: only what is queued is delivered, and the later one has arrived.
    expect(webhook.deliveries.some((delivery) => delivery.body.pix?.[0]?.endToEndId === dropped.pix.endToEndId)).toBe(
      false
    )
  })

  it("answers 404 PixNaoEncontrado for a pix it did not receive", async () => {
    const unknown = await client.get("/pix/E99999999202001011200abcdefghijk")
    expect(unknown.status).toBe(404)
    expect(unknown.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/PixNaoEncontrado" })
  })

  it("lists the pix received in a period, page by page, with the parameters it used", async () => {
    const inicio = new Date(Date.now() - 1).toISOString()
    const paid: Array<string> = []
    for (let index = 0; index < 5; index++) {
      const { txid } = await newCharge(`1${index}.00`)
      paid.push((await client.post("/simulator/pay", { txid })).json().pix.endToEndId)
    }
    const fim = new Date(Date.now() + 1).toISOString()
    const page = async (number: number) => {
      const answer = await client.get(
        `/pix?inicio=${encodeURIComponent(inicio)}&fim=${encodeURIComponent(fim)}&paginacao.paginaAtual=${number}&paginacao.itensPorPagina=2`
      )
      expect(answer.status).toBe(200)
      return answer.json()
    }
    const first = await page(0)
    expect(first.parametros).toEqual({
      inicio,
      fim,
      paginacao: { paginaAtual: 0, itensPorPagina: 2, quantidadeDePaginas: 3, quantidadeTotalDeItens: 5 }
    })
    const pages = [first, await page(1), await page(2)]
    expect(pages.map((answer) => answer.pix.length)).toEqual([2, 2, 1])
    expect(pages.flatMap((answer) => answer.pix.map((pix: any) => pix.endToEndId))).toEqual(paid)

    const empty = await client.get(`/pix?inicio=${encodeURIComponent(fim)}&fim=${encodeURIComponent(fim)}`)
    expect(empty.json()).toMatchObject({
      parametros: {
        paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 0 }
      },
      pix: []
    })
  })

  it("stops notifying once the webhook is removed", async () => {
    expect((await client.delete(`/webhook/${chave}`)).status).toBe(204)
    expect((await client.get(`/webhook/${chave}`)).status).toBe(404)
    expect((await client.delete(`/webhook/${chave}`)).status).toBe(404)
    const paid = (await client.post("/simulator/pay", { txid: (await newCharge()).txid })).json()
    expect(paid.notification).toBe("no webhook")
  })
})
