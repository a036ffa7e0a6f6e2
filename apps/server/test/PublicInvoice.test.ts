// SPEC 4.7 and 5.5: the invoice as its payer sees it, behind the checkout token, with nothing personal in it.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { inMemory } from "./support/InMemoryServices.js"
import { boletoRequest, cardRequest, pixRequest, startApp, type TestApp } from "./support/TestApp.js"

const payer = {
  name: "Beatriz Nogueira",
  cpf_cnpj: "529.982.247-25",
  email: "beatriz@private.example",
  phone: "(21) 98765-4321"
}

describe.each([inMemory])("the public invoice on $name", (database) => {
  let app: TestApp
  let key: string

  beforeAll(async () => {
    app = await startApp(database)
    key = (await app.registerCompany({ name: "Café Aurora" })).secretKey
  })
  afterAll(() => app.stop())

  const publicOf = (invoice: { secureId: string; invoice: { token_checkout: string } }, token?: string) =>
    app.request(
      "GET",
      `/api/v2/public/invoices/${invoice.secureId}${token === undefined ? `?token=${invoice.invoice.token_checkout}` : token}`
    )

  it("shows what the payer needs, and nothing else", async () => {
    const created = (
      await app.request("POST", "/api/v2/invoices", {
        key,
        body: pixRequest({
          payer,
          items: [{ name: "Café", quantity: 2, unit_price: 6_172 }],
          total_price_cents: 12_344
        })
      })
    ).body
    const reply = await publicOf(created)
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body).sort()).toEqual(
      [
        "amount",
        "boleto",
        "createdAt",
        "customer",
        "enterprise",
        "installments",
        "items",
        "paidAt",
        "paymentMethod",
        "pix",
        "refusedReason",
        "secureId",
        "status"
      ].sort()
    )
    expect(reply.body).toMatchObject({
      secureId: created.secureId,
      status: "pending",
      amount: 12_344,
      paymentMethod: "pix",
      installments: 1,
      paidAt: null,
      boleto: null,
      enterprise: { fantasy_name: "Café Aurora" },
      customer: { name: "Beatriz Nogueira" },
      pix: { qrCode: created.pix.qrCode, expiresAt: created.pix.expiresAt },
      items: [{ title: "Café", quantity: 2, unitPrice: 6_172, tangible: false, externalRef: null }]
    })
    const text = JSON.stringify(reply.body)
    for (const secret of [
      "52998224725",
      "529.982.247-25",
      "beatriz@private.example",
      "21987654321",
      key,
      created.invoice.token_checkout
    ]) {
      expect(text).not.toContain(secret)
    }
    for (const field of ["fee", "financial_movements", "client", "email", "document", "value_seller", "postbackUrl"]) {
      expect(text).not.toContain(`"${field}"`)
    }
  })

  it("shows the slip of a boleto and the outcome of a refused card", async () => {
    const boleto = (await app.request("POST", "/api/v2/invoices", { key, body: boletoRequest() })).body
    expect((await publicOf(boleto)).body.boleto).toEqual(boleto.boleto)
    const refused = (
      await app.request("POST", "/api/v2/invoices", { key, body: cardRequest({ number: "4000000000000002" }) })
    ).body
    expect((await publicOf(refused)).body).toMatchObject({ status: "refused", refusedReason: "card_declined" })
  })

  it("answers 404 to a wrong, missing or other invoice's token, like an unknown invoice", async () => {
    const first = (await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })).body
    const second = (await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })).body
    const unknown = await app.request("GET", `/api/v2/public/invoices/${crypto.randomUUID()}?token=x`)
    expect(unknown.status).toBe(404)
    for (const token of ["?token=wrong", "", "?token=", `?token=${second.invoice.token_checkout}`]) {
      const reply = await publicOf(first, token)
      expect(reply.status, token).toBe(404)
      expect(reply.body).toEqual(unknown.body)
    }
  })

  it("follows the invoice: paid once the sandbox pays it", async () => {
    const created = (await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })).body
    await app.request("POST", "/api/v2/sandbox/invoices/pay", { key, body: { id: created.secureId } })
    const reply = await publicOf(created)
    expect(reply.body.status).toBe("paid")
    expect(reply.body.paidAt).toMatch(/Z$/)
  })
})
