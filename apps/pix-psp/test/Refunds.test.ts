// Refunds (`devolucao`): asked EM_PROCESSAMENTO, settled DEVOLVIDO (or NAO_REALIZADO while the simulator refuses
// them, or refused at once with a 400 while it refuses them when asked), the webhook told of the outcome, and never
// more refunded than was paid.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { ApiPixClient } from "./support/ApiPixClient.js"
import { ApiPixContract } from "./support/ApiPixContract.js"
import { chargeRequest, newTxid } from "./support/Charges.js"
import { eventually } from "./support/Eventually.js"
import { startPsp, type TestPsp } from "./support/TestPsp.js"
import { WebhookReceiver } from "./support/WebhookReceiver.js"

describe("refunds (devolucao)", () => {
  let contract: ApiPixContract
  let psp: TestPsp
  let client: ApiPixClient
  let webhook: WebhookReceiver

  /** A pix of `valor` received for a new charge: its endToEndId. */
  const receivedPix = async (valor: string) => {
    const txid = newTxid()
    await client.put(`/cob/${txid}`, chargeRequest(psp.state.credentials.pixKey, valor))
    return (await client.post("/simulator/pay", { txid })).json().pix.endToEndId as string
  }

  /** The refund once it is no longer EM_PROCESSAMENTO, read through the API. */
  const settled = (endToEndId: string, id: string) =>
    eventually(`refund ${id} to settle`, async () => {
      const refund = (await client.get(`/pix/${endToEndId}/devolucao/${id}`)).json()
      return refund.status === "EM_PROCESSAMENTO" ? undefined : refund
    })

  /** The refund as the webhook was last told of it in a settled state. */
  const notifiedRefund = (endToEndId: string, id: string) =>
    eventually(`the webhook to hear refund ${id} settled`, () =>
      webhook.notifiedPix
        .filter((pix) => pix.endToEndId === endToEndId)
        .flatMap((pix) => pix.devolucoes ?? [])
        .find((refund: any) => refund.id === id && refund.status !== "EM_PROCESSAMENTO")
    )

  beforeAll(async () => {
    contract = await ApiPixContract.load()
    psp = await startPsp({ refundDelayMs: 100 })
    client = await psp.authenticatedClient(contract)
    webhook = await WebhookReceiver.start(contract)
    await client.put(`/webhook/${psp.state.credentials.pixKey}`, { webhookUrl: webhook.url })
  })
  afterEach(async () => {
    await psp.switches.change({ refuseRefunds: false, refuseRefundRequests: false })
    expect(contract.problems).toEqual([])
  })
  afterAll(async () => {
    client?.close()
    await webhook?.close()
    await psp?.stop()
  })

  it("answers EM_PROCESSAMENTO, then settles DEVOLVIDO and tells the webhook", async () => {
    const endToEndId = await receivedPix("100.00")
    const asked = await client.put(`/pix/${endToEndId}/devolucao/r1`, { valor: "30.00", descricao: "Troca" })
    expect(asked.status).toBe(201)
    const refund = asked.json()
    expect(refund).toMatchObject({ id: "r1", valor: "30.00", status: "EM_PROCESSAMENTO", descricao: "Troca" })
    expect(refund.rtrId).toMatch(/^D99999998\d{12}[a-zA-Z0-9]{11}$/)
    expect(Date.parse(refund.horario.solicitacao)).not.toBeNaN()

    const done = await settled(endToEndId, "r1")
    expect(done).toMatchObject({ id: "r1", rtrId: refund.rtrId, status: "DEVOLVIDO" })
    expect(Date.parse(done.horario.liquidacao)).not.toBeNaN()
    expect(await notifiedRefund(endToEndId, "r1")).toMatchObject({ status: "DEVOLVIDO", valor: "30.00" })
    expect((await client.get(`/pix/${endToEndId}`)).json().devolucoes).toEqual([
      expect.objectContaining({ id: "r1", status: "DEVOLVIDO" })
    ])
  })

  it("answers the same refund to the same request again, and refuses another request under its id", async () => {
    const endToEndId = await receivedPix("20.00")
    const first = (await client.put(`/pix/${endToEndId}/devolucao/again1`, { valor: "5.00" })).json()
    const repeated = await client.put(`/pix/${endToEndId}/devolucao/again1`, { valor: "5.00" })
    expect(repeated.status).toBe(201)
    expect(repeated.json().rtrId).toBe(first.rtrId)
    const other = await client.put(`/pix/${endToEndId}/devolucao/again1`, { valor: "6.00" })
    expect(other.status).toBe(400)
    expect(other.json()).toMatchObject({
      type: "https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida",
      violacoes: [{ propriedade: "id" }]
    })
  })

  it("refuses to refund more than what is left of the pix", async () => {
    const endToEndId = await receivedPix("100.00")
    expect((await client.put(`/pix/${endToEndId}/devolucao/part1`, { valor: "30.00" })).status).toBe(201)
    const tooMuch = await client.put(`/pix/${endToEndId}/devolucao/part2`, { valor: "70.01" })
    expect(tooMuch.status).toBe(400)
    expect(tooMuch.json()).toMatchObject({
      type: "https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida",
      violacoes: [{ propriedade: "devolucao.valor" }]
    })
    expect((await client.put(`/pix/${endToEndId}/devolucao/part2`, { valor: "70.00" })).status).toBe(201)
  })

  it("settles NAO_REALIZADO while refuseRefunds is on, tells the webhook, and leaves the amount refundable", async () => {
    const endToEndId = await receivedPix("10.00")
    await client.post("/simulator/switches", { refuseRefunds: true })
    expect((await client.put(`/pix/${endToEndId}/devolucao/no1`, { valor: "10.00" })).json().status).toBe(
      "EM_PROCESSAMENTO"
    )
    const refused = await settled(endToEndId, "no1")
    expect(refused).toMatchObject({ status: "NAO_REALIZADO" })
    expect(refused.motivo).toEqual(expect.any(String))
    expect(await notifiedRefund(endToEndId, "no1")).toMatchObject({ status: "NAO_REALIZADO" })

    await client.post("/simulator/switches", { refuseRefunds: false })
    expect((await client.put(`/pix/${endToEndId}/devolucao/yes1`, { valor: "10.00" })).status).toBe(201)
    expect(await settled(endToEndId, "yes1")).toMatchObject({ status: "DEVOLVIDO" })
  })

  it("refuses at once, 400 PixDevolucaoInvalida with its violation, while refuseRefundRequests is on", async () => {
    const endToEndId = await receivedPix("10.00")
    expect((await client.put(`/pix/${endToEndId}/devolucao/made1`, { valor: "4.00" })).status).toBe(201)
    await client.post("/simulator/switches", { refuseRefundRequests: true })
    const refused = await client.put(`/pix/${endToEndId}/devolucao/late1`, { valor: "6.00" })
    expect(refused.status).toBe(400)
    expect(refused.json()).toMatchObject({
      type: "https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida",
      status: 400,
      violacoes: [{ propriedade: "e2eid", razao: expect.stringContaining("90 dias") }]
    })
    // None was made under that id; the one made before is answered as ever.
    expect((await client.get(`/pix/${endToEndId}/devolucao/late1`)).status).toBe(404)
    const again = await client.put(`/pix/${endToEndId}/devolucao/made1`, { valor: "4.00" })
    expect(again.status).toBe(201)
    expect(again.json()).toMatchObject({ id: "made1" })

    await client.post("/simulator/switches", { refuseRefundRequests: false })
    expect((await client.put(`/pix/${endToEndId}/devolucao/late1`, { valor: "6.00" })).status).toBe(201)
  })

  it("answers 404 for a refund or a pix it does not know", async () => {
    const endToEndId = await receivedPix("1.00")
    const unknownRefund = await client.get(`/pix/${endToEndId}/devolucao/nothere`)
    expect(unknownRefund.status).toBe(404)
    expect(unknownRefund.json()).toMatchObject({
      type: "https://pix.bcb.gov.br/api/v2/error/PixDevolucaoNaoEncontrada"
    })
    const unknownPix = await client.put("/pix/E99999999202001011200abcdefghijk/devolucao/x1", { valor: "1.00" })
    expect(unknownPix.status).toBe(404)
    expect(unknownPix.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/PixNaoEncontrado" })
  })
})
