// SPEC 4.5, 4.6, 5.3, 5.4: Company Infos and Active 3ds.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { inMemory } from "./support/InMemoryServices.js"
import { startApp, type TestApp } from "./support/TestApp.js"

const timestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

describe.each([inMemory])("company on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  it("shows the caller's company with formatted CNPJ, zero balances and no blocks", async () => {
    const registered = await app.registerCompany({ cnpj: "11444777000161", name: "Mercado Ipê" })
    const reply = await app.request("GET", "/api/v2/company", { key: registered.secretKey })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      id: registered.company.id,
      cnpj: "11.444.777/0001-61",
      corporate_reason: "Mercado Ipê",
      fantasy_name: "Mercado Ipê",
      bank_type: "corrente",
      balance_pix: 0,
      balance_card: 0,
      balance_bank_slip: 0,
      waiting_funds_pix: 0,
      waiting_funds_card: 0,
      waiting_funds_bank_slip: 0,
      auto_withdrawal: "off",
      amount_invoice_total: 0,
      amount_invoices_competicion: 0,
      blocked_system: false,
      blocked_processing: false,
      blocked_pix: false,
      blocked_card: false,
      blocked_bank_slip: false,
      blocked_sake: false,
      is_custom: false,
      is_active_3ds: false
    })
    expect(reply.body.create_at).toMatch(timestamp)
    expect(reply.body.update_at).toMatch(timestamp)
  })

  it("formats an alphanumeric CNPJ the same way", async () => {
    const registered = await app.registerCompany({ cnpj: "12ABC34501DE35" })
    const reply = await app.request("GET", "/api/v2/company", { key: registered.secretKey })
    expect(reply.body.cnpj).toBe("12.ABC.345/01DE-35")
  })

  it("shows blocks as they are set", async () => {
    const registered = await app.registerCompany()
    await app.setBlock(registered.company.id, "card", true)
    await app.setBlock(registered.company.id, "sake", true)
    const reply = await app.request("GET", "/api/v2/company", { key: registered.secretKey })
    expect(reply.body).toMatchObject({ blocked_card: true, blocked_sake: true, blocked_pix: false })
  })

  it("marks a company with a fee plan of its own as custom", async () => {
    const registered = await app.registerCompany({
      feePlan: {
        pix: { spreadPercentage: 0.99, fixedAmount: 0 },
        bank_slip: { spreadPercentage: 0, fixedAmount: 199 },
        credit_card: {
          oneInstallment: { spreadPercentage: 2.99, fixedAmount: 29 },
          twoToSix: { spreadPercentage: 3.99, fixedAmount: 29 },
          sevenToTwelve: { spreadPercentage: 4.99, fixedAmount: 29 }
        },
        acquirerPercentage: { pix: 0.2, bank_slip: 0, credit_card: 1.8 },
        referrerPercentage: 0.5,
        retentionPercentage: 1.5
      } as never
    })
    const company = await app.request("GET", "/api/v2/company", { key: registered.secretKey })
    expect(company.body.is_custom).toBe(true)
    const invoice = await app.request("POST", "/api/v2/invoices", {
      key: registered.secretKey,
      body: {
        method: "pix",
        total_price_cents: 10_000,
        payer: { name: "Ana", cpf_cnpj: "52998224725", email: "ana@example.com" }
      }
    })
    expect(invoice.body.fee).toEqual({ estimatedFee: 99, fixedAmount: 0, netAmount: 9_901, spreadPercentage: 0.99 })
    expect(invoice.body.invoice).toMatchObject({
      is_indication_tax: true,
      retention_tax: 1.5,
      value_adq: 20,
      value_indication: 50,
      value_platform: 29,
      value_seller: 9_901,
      value_total: 10_000
    })
  })

  it("activates 3-D Secure and hands out the public token, idempotently", async () => {
    const registered = await app.registerCompany({ name: "Loja Três" })
    const first = await app.request("POST", "/api/v2/exchange-token", { key: registered.secretKey })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      checkout: { id: registered.company.id, title: "Loja Três" },
      enterprise: { id: registered.company.id, fantasy_name: "Loja Três", corporate_reason: "Loja Três" },
      is_active_3ds: true,
      status_request: "success",
      property1: ""
    })
    expect(first.body.public_token).toMatch(/^pk_test_[0-9A-Za-z]{32}$/)
    expect(first.body.created_at).toMatch(timestamp)
    expect(typeof first.body.message).toBe("string")

    const second = await app.request("POST", "/api/v2/exchange-token", { key: registered.secretKey })
    expect(second.body.public_token).toBe(first.body.public_token)
    expect(second.body.created_at).toBe(first.body.created_at)
    expect(second.body.updated_at > first.body.updated_at).toBe(true)

    const company = await app.request("GET", "/api/v2/company", { key: registered.secretKey })
    expect(company.body.is_active_3ds).toBe(true)
  })

  it("gives a live key a live public token", async () => {
    const registered = await app.registerCompany()
    const live = await app.createKey(registered.company.id, "live")
    const reply = await app.request("POST", "/api/v2/exchange-token", { key: live.secretKey })
    expect(reply.body.public_token).toMatch(/^pk_live_[0-9A-Za-z]{32}$/)
  })

  it("hands out one token under concurrent first calls", async () => {
    const registered = await app.registerCompany()
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => app.request("POST", "/api/v2/exchange-token", { key: registered.secretKey }))
    )
    expect(replies.every((reply) => reply.status === 200)).toBe(true)
    expect(new Set(replies.map((reply) => reply.body.public_token)).size).toBe(1)
    expect(new Set(replies.map((reply) => reply.body.created_at)).size).toBe(1)
  })
})
