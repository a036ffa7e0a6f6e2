// Hybrid boletos (SPEC 15.1) end to end, on each database: the server speaks to the local PSP (apps/pix-psp) through
// @fatura/pix-api, every exchange held to the Central Bank's API Pix document, and to the local bank (apps/bank) by
// CNAB 240 files over SFTP. Each boleto is also a pix charge with a due date (`cobv`) whose BR Code the invoice, the
// PDF and the checkout page carry; paid by pix, the invoice is paid once and the next remessa writes the boleto off, so
// that the bank refuses its barcode; paid at the bank, the cobv is removed, so that the PSP refuses a pix; paid both
// ways before either is withdrawn, the invoice is still paid once, and the second payment says it paid nothing.
import { PixSettlements } from "@fatura/application"
import { Effect } from "effect"
import { hasError, isDynamicPix, parsePix } from "pix-utils"
import { extractText, getDocumentProxy } from "unpdf"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import {
  ApiPixContract,
  Exchanges,
  eventually,
  pixApi,
  settingsOf,
  startPsp,
  type TestPsp
} from "../../../packages/pix-api/test/support/LocalPsp.js"
import { bankActs, exchange, startLocalBank, type TestBank } from "./support/Bank.js"
import { boletoRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

let contract: ApiPixContract

beforeAll(async () => {
  contract = await ApiPixContract.load()
})

describe.each(testDatabases)("hybrid boletos through the local PSP and the local bank on $name", (database) => {
  let psp: TestPsp
  let bank: TestBank
  let app: TestApp
  let key: string

  beforeAll(async () => {
    psp = await startPsp({ refundDelayMs: 150 })
    bank = await startLocalBank()
    app = await startApp(database, {
      pixProvider: pixApi(settingsOf(psp), new Exchanges(contract)),
      bank: bank.settings
    })
    const { company } = await app.registerCompany({ pixKey: "financeiro@padaria.example" })
    key = (await app.createKey(company.id, "test")).secretKey
    await app.run(Effect.flatMap(PixSettlements, (pix) => pix.registerWebhook(`${app.baseUrl}/pix-api/webhook`)))
  })
  afterEach(() => {
    expect(contract.problems).toEqual([])
  })
  afterAll(async () => {
    await app?.stop()
    await bank?.stop()
    await psp?.stop()
  })

  const create = async (amount = 15_000) => {
    const created = await app.request("POST", "/api/v2/invoices", {
      key,
      body: boletoRequest({ total_price_cents: amount })
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    return created.body
  }
  const read = async (secureId: string) => (await app.request("GET", `/api/v2/invoices?id=${secureId}`, { key })).body
  const readUntil = (secureId: string, holds: (invoice: any) => boolean) =>
    eventually(`invoice ${secureId} to settle`, async () => {
      const found = await read(secureId)
      return holds(found) ? found : undefined
    })
  const eventsOf = async (secureId: string) =>
    ((await app.request("GET", `/api/v2/events?invoice_id=${secureId}&limit=100`, { key })).body.data as Array<any>)
      .map((event) => [event.type, event.reason ?? null])
      .reverse()
  /** Fatura sends what waits, the bank answers, Fatura reads the answer. */
  const roundTrip = async () => {
    const sent = await exchange(app)
    bankActs(bank)
    return { sent: sent.uploaded, read: (await exchange(app)).read }
  }
  const payAtPsp = (txid: string) =>
    psp.anonymousClient().send("POST", "/simulator/pay", { json: { txid }, bearer: null })
  const cobv = async (txid: string) => {
    const client = await psp.authenticatedClient(contract)
    return (await client.send("GET", `/cobv/${txid}`)).json()
  }
  const sweepCharges = () => app.run(Effect.flatMap(PixSettlements, (pix) => pix.sweepCharges))

  it("makes each boleto a cobv at the PSP, its dynamic BR Code on the invoice, the PDF and the checkout page", async () => {
    const invoice = await create()
    const txid = invoice.secureId.replaceAll("-", "")
    const qrCode = invoice.boleto.pix_qr_code as string
    const parsed = parsePix(qrCode)
    if (hasError(parsed)) expect.fail(`the BR Code does not parse: ${parsed.message}`)
    if (!isDynamicPix(parsed)) expect.fail("the BR Code is not a dynamic pix code")
    // `pix` stays a pix invoice's.
    expect(invoice.pix).toEqual({ qrCode: "" })
    expect(invoice.invoice.qr_code_pix).toBe("")
    expect(await cobv(txid)).toMatchObject({
      txid,
      status: "ATIVA",
      calendario: { dataDeVencimento: invoice.boleto.due_date, validadeAposVencimento: 0 },
      valor: { original: "150.00" }
    })
    const pdf = await fetch(
      `${app.baseUrl}/api/v2/public/invoices/${invoice.secureId}/boleto.pdf?token=${invoice.invoice.token_checkout}`
    )
    const text = (
      await extractText(await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer())), { mergePages: true })
    ).text
    expect(text).toContain("Pague com Pix")
    const page = await (
      await fetch(`${app.baseUrl}/checkout/${invoice.secureId}?token=${invoice.invoice.token_checkout}`)
    ).text()
    expect(page).toContain("Ou pague com Pix")
    expect(page).toContain(qrCode.replaceAll("&", "&amp;"))
  })

  it("paid by pix, pays the invoice once and writes the boleto off at the bank, which then refuses its barcode", async () => {
    const invoice = await create()
    await roundTrip()
    expect((await read(invoice.secureId)).boleto.registration).toBe("registered")
    const paidByPix = await payAtPsp(invoice.secureId.replaceAll("-", ""))
    expect(paidByPix.status).toBe(201)
    const endToEndId = paidByPix.json().pix.endToEndId as string
    const paid = await readUntil(invoice.secureId, (found) => found.status === "paid")
    expect(paid.timeline.at(-1)).toMatchObject({
      status: "paid",
      detail: `paid by pix (end-to-end id ${endToEndId}), not at the bank`
    })
    // The write-off goes in the next remessa; the bank writes the boleto off, and its answer changes nothing.
    const { sent } = await roundTrip()
    expect(sent).toHaveLength(1)
    const unpadded = (ourNumber: string) => ourNumber.replace(/^0+/, "")
    const atBank = ((await bank.simulate("GET", "/boletos")).body as Array<{ ourNumber: string; status: string }>).find(
      (boleto) => unpadded(boleto.ourNumber) === unpadded(invoice.boleto.our_number)
    )
    expect(atBank?.status).toBe("written_off")
    const refused = await bank.simulate("POST", "/boletos/pay", { digitable_line: invoice.boleto.digitable_line })
    expect(refused.status).toBeGreaterThanOrEqual(400)
    const after = await read(invoice.secureId)
    expect(after.financial_movements).toEqual(paid.financial_movements)
    expect((await eventsOf(invoice.secureId)).map(([type]) => type)).toEqual([
      "invoice.created",
      "invoice.boleto_registered",
      "invoice.paid"
    ])
  })

  it("paid at the bank, removes the cobv at the PSP, which then refuses a pix for it", async () => {
    const invoice = await create()
    const txid = invoice.secureId.replaceAll("-", "")
    await roundTrip()
    expect(
      (await bank.simulate("POST", "/boletos/pay", { digitable_line: invoice.boleto.digitable_line })).status
    ).toBe(200)
    await roundTrip()
    expect((await read(invoice.secureId)).status).toBe("paid")
    expect(await sweepCharges()).toBeGreaterThanOrEqual(1)
    expect((await cobv(txid)).status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR")
    expect(await sweepCharges()).toBe(0)
    expect((await payAtPsp(txid)).status).toBeGreaterThanOrEqual(400)
  })

  it("paid both ways before either is withdrawn, is paid once: the bank's payment pays nothing and says so", async () => {
    const invoice = await create(17_000)
    await roundTrip()
    const pix = await payAtPsp(invoice.secureId.replaceAll("-", ""))
    const endToEndId = pix.json().pix.endToEndId as string
    const paid = await readUntil(invoice.secureId, (found) => found.status === "paid")
    // The payer pays the barcode too, before the write-off reaches the bank.
    expect(
      (await bank.simulate("POST", "/boletos/pay", { digitable_line: invoice.boleto.digitable_line })).status
    ).toBe(200)
    await roundTrip()
    const after = await read(invoice.secureId)
    expect([after.status, after.financial_movements]).toEqual(["paid", paid.financial_movements])
    expect((await eventsOf(invoice.secureId)).slice(3)).toEqual([
      [
        "invoice.payment_rejected",
        `the bank received R$ 170,00 for the boleto, and the invoice is paid by pix (end-to-end id ${endToEndId}): it ` +
          "was not paid by it"
      ]
    ])
  })
})
