// SPEC 4.1, 4.2, 5.1, 6.1: a pix invoice created and searched end to end, in the seed's exact shape.
import * as http from "node:http"
import { hasError, parsePix } from "pix-utils"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectShape, nestedFields, transactionFields } from "./support/SeedShape.js"
import { pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

/** fetch refuses a body on GET; the seed's sample request sends one, so use node:http directly. */
const getWithBody = (url: string, key: string, body: string) =>
  new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "GET",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body))
        }
      },
      (response) => {
        let text = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => {
          text += chunk
        })
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }))
      }
    )
    request.on("error", reject)
    request.end(body)
  })

const readPix = (qrCode: string) => {
  const pix = parsePix(qrCode)
  if (hasError(pix)) throw new Error(`pix-utils rejects ${qrCode}: ${JSON.stringify(pix)}`)
  return pix
}

describe.each(testDatabases)("pix invoices on $name", (database) => {
  let app: TestApp
  let key: string
  let companyId: number

  beforeAll(async () => {
    app = await startApp(database)
    const registered = await app.registerCompany({ name: "Açougue Cândido & Filhos", pixKey: "pix@acougue.example" })
    key = registered.secretKey
    companyId = registered.company.id
  })
  afterAll(() => app.stop())

  it("creates a pending pix invoice with every field of the seed's Invoice transaction", async () => {
    const reply = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })
    expect(reply.status).toBe(201)
    const invoice = reply.body
    expectShape(invoice, transactionFields, "transaction")
    for (const item of invoice.items) expectShape(item, nestedFields.item!, "items[]")
    expectShape(invoice.fee, nestedFields.fee!, "fee")
    expectShape(invoice.client, nestedFields.client!, "client")
    expectShape(invoice.customer, nestedFields.customer!, "customer")
    expectShape(invoice.customer.document, nestedFields.document!, "customer.document")
    expectShape(invoice.customer.address, nestedFields.address!, "customer.address")
    expectShape(invoice.enterprise, nestedFields.enterprise!, "enterprise")
    expectShape(invoice.invoice, nestedFields.invoice!, "invoice")
    expect(typeof invoice.pix.qrCode).toBe("string")

    expect(invoice).toMatchObject({
      companyId,
      amount: 12_345,
      installments: 1,
      paymentMethod: "pix",
      status: "pending",
      paidAt: null,
      refundedAmount: 0,
      refusedReason: null,
      postbackUrl: "",
      traceable: false,
      boleto: null,
      card: null,
      card_associate: null,
      delivery: null,
      shipping: null,
      financial_movements: [],
      refunds: [],
      splits: []
    })
    expect(invoice.secureId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(invoice.invoice).toMatchObject({
      id: invoice.id,
      invoice_id: invoice.secureId,
      payment_method: "pix",
      status: "pending",
      is_pix: true,
      is_bank_slip: false,
      is_credit_card: false,
      qr_code_pix: invoice.pix.qrCode,
      created_at: invoice.createdAt,
      updated_at: invoice.updatedAt
    })
    expect(invoice.invoice.token_checkout.length).toBeGreaterThanOrEqual(22)
    expect(invoice.timeline).toEqual([{ status: "pending", event: "invoice.created", created_at: invoice.createdAt }])
    expect(invoice.items).toEqual([
      { title: "Invoice", quantity: 1, unitPrice: 12_345, tangible: false, externalRef: null }
    ])
    expect(invoice.customer.document).toEqual({ number: "52998224725", type: "cpf" })
    expect(invoice.customer.phone).toBe("11988887777")
    expect(invoice.customer.address.country).toBe("BR")
    expect(invoice.enterprise.id).toBe(companyId)
    expect(invoice.enterprise.cnpj).toMatch(/^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/)
  })

  it("splits the fee by the default plan (SPEC 7.2–7.3)", async () => {
    const reply = await app.request("POST", "/api/v2/invoices", {
      key,
      body: pixRequest({ total_price_cents: 10_000 })
    })
    expect(reply.body.fee).toEqual({ estimatedFee: 199, fixedAmount: 0, netAmount: 9_801, spreadPercentage: 1.99 })
    const detail = reply.body.invoice
    expect(detail).toMatchObject({ value_adq: 20, value_indication: 0, value_platform: 179, value_seller: 9_801 })
    expect(detail.value_total).toBe(10_000)
    expect(detail.value_seller + detail.value_platform + detail.value_adq + detail.value_indication).toBe(10_000)
  })

  it.each([
    [10_000, 100],
    [12_340, 123.4],
    [12_345, 123.45]
  ])("builds a BR Code that an independent parser reads, for %i cents", async (cents, reais) => {
    const reply = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest({ total_price_cents: cents }) })
    const qrCode: string = reply.body.pix.qrCode
    expect(qrCode).toMatch(/^000201010212/)
    const amountText = (cents / 100).toFixed(2)
    expect(qrCode).toContain(`54${String(amountText.length).padStart(2, "0")}${amountText}`)
    const pix = readPix(qrCode)
    expect(pix).toMatchObject({
      type: "STATIC",
      pixKey: "pix@acougue.example",
      merchantName: "Acougue Candido & Filhos",
      merchantCity: "SAO PAULO",
      transactionAmount: reais,
      txid: reply.body.pix.txid,
      transactionCurrency: "986",
      countryCode: "BR"
    })
    expect(reply.body.pix.txid).toMatch(/^[A-Za-z0-9]{1,25}$/)
  })

  it("gives every invoice its own txid and checkout token", async () => {
    const replies = await Promise.all(
      [1, 2, 3].map(() => app.request("POST", "/api/v2/invoices", { key, body: pixRequest() }))
    )
    const txids = new Set(replies.map((reply) => reply.body.pix.txid))
    const tokens = new Set(replies.map((reply) => reply.body.invoice.token_checkout))
    expect(txids.size).toBe(3)
    expect(tokens.size).toBe(3)
  })

  it("expires after expires_in seconds, one day by default", async () => {
    const byDefault = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })
    const custom = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest({ expires_in: 600 }) })
    const seconds = (reply: typeof custom) =>
      (Date.parse(reply.body.pix.expiresAt) - Date.parse(reply.body.createdAt)) / 1000
    expect(seconds(byDefault)).toBe(86_400)
    expect(seconds(custom)).toBe(600)
  })

  it("keeps the request's items, references and payer data", async () => {
    const reply = await app.request("POST", "/api/v2/invoices", {
      key,
      body: pixRequest({
        total_price_cents: 2_500,
        items: [
          { name: "Pão de queijo", description: "Quentinho", quantity: 4, unit_price: 500 },
          { name: "Café", quantity: 1, unit_price: 500 }
        ],
        product_fisical: "TRUE",
        ip_payer: "2001:db8::1",
        postback_url: "https://merchant.example/postbacks",
        external_ref: "order-77",
        metadata: { cart: "c-1", channel: "app" },
        payer: {
          name: "Empresa Cliente",
          cpf_cnpj: "11.444.777/0001-61",
          email: "financeiro@cliente.example",
          address_zip: "01310-100",
          address_line: "Avenida Paulista",
          address_number: "1000",
          address_complement: "conj. 12",
          address_city: "São Paulo",
          address_state: "sp"
        }
      })
    })
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({
      traceable: true,
      ip: "2001:db8::1",
      postbackUrl: "https://merchant.example/postbacks",
      externalRef: "order-77",
      metadata: { cart: "c-1", channel: "app" },
      items: [
        { title: "Pão de queijo", quantity: 4, unitPrice: 500, tangible: true, externalRef: null },
        { title: "Café", quantity: 1, unitPrice: 500, tangible: true, externalRef: null }
      ],
      customer: {
        name: "Empresa Cliente",
        phone: "",
        document: { number: "11444777000161", type: "cnpj" },
        address: {
          street: "Avenida Paulista",
          streetNumber: "1000",
          neighborhood: "",
          city: "São Paulo",
          state: "SP",
          zipCode: "01310100",
          complement: "conj. 12",
          country: "BR"
        }
      }
    })
    expect(reply.body.invoice).toMatchObject({
      invoice_id_external: "order-77",
      postback_url: "https://merchant.example/postbacks"
    })
  })

  it("keeps one client per document, refreshed by later invoices", async () => {
    const payer = { name: "Carla Dias", cpf_cnpj: "39053344705", email: "carla@old.example" }
    const first = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest({ payer }) })
    const second = await app.request("POST", "/api/v2/invoices", {
      key,
      body: pixRequest({ payer: { ...payer, name: "Carla Dias Lima", email: "carla@new.example" } })
    })
    expect(second.body.client.id).toBe(first.body.client.id)
    expect(second.body.client).toMatchObject({ name: "Carla Dias Lima", email: "carla@new.example" })
    expect(second.body.customer.name).toBe("Carla Dias Lima")
    const again = await app.request("GET", `/api/v2/invoices?id=${first.body.secureId}`, { key })
    expect(again.body.customer).toMatchObject({ name: "Carla Dias", email: "carla@old.example" })
  })

  it("finds the invoice by secureId and by numeric id, ignoring a JSON body sent with the GET", async () => {
    const created = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })
    const bySecureId = await app.request("GET", `/api/v2/invoices?id=${created.body.secureId}`, { key })
    const byId = await getWithBody(
      `${app.baseUrl}/api/v2/invoices?id=${created.body.id}`,
      key,
      JSON.stringify(pixRequest({ method: "bank_slip" }))
    )
    expect(bySecureId.status).toBe(200)
    expect(byId.status).toBe(200)
    expect(bySecureId.body).toEqual(created.body)
    expect(byId.body).toEqual(created.body)
  })

  it("records an invoice.created event in the same transaction, with the invoice as data", async () => {
    const created = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })
    const events = await app.query(
      `SELECT id, type, livemode, data FROM events WHERE invoice_id = ${Number(created.body.id)}`
    )
    expect(events).toHaveLength(1)
    const event = events[0]!
    expect(event.id).toMatch(/^evt_[0-9a-f-]{36}$/)
    expect(event).toMatchObject({ type: "invoice.created", livemode: false })
    expect(event.data).toEqual(created.body)
  })

  it("answers 403 when the company is blocked for pix or for processing", async () => {
    const registered = await app.registerCompany()
    for (const block of ["pix", "processing"] as const) {
      await app.setBlock(registered.company.id, block, true)
      const reply = await app.request("POST", "/api/v2/invoices", { key: registered.secretKey, body: pixRequest() })
      expect(reply.status).toBe(403)
      expect(reply.body.code).toBe("forbidden")
      await app.setBlock(registered.company.id, block, false)
    }
    const reply = await app.request("POST", "/api/v2/invoices", { key: registered.secretKey, body: pixRequest() })
    expect(reply.status).toBe(201)
  })
})
