// SPEC 4.1 (credit_card), 5.1 (`card`, `card_associate`), 6.3, 7.2–7.4: card payments through the sandbox
// acquirer, with installments and 3-D Secure.
import { BusinessCalendar } from "@fatura/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cardRequest, nextYear, pixRequest, startApp, type TestApp, testCard } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

const authenticated = { eci: "05", cavv: "AAABAWFlmQAAAABjRWWZEEFgFz+=", version: "2.2.0", xid: "x-1" }
const attempted = { eci: "06", cavv: "AAABAWFlmQAAAABjRWWZEEFgFz+=", version: "2.2.0" }

describe.each(testDatabases)("card invoices on $name", (database) => {
  let app: TestApp
  let key: string

  beforeAll(async () => {
    app = await startApp(database)
    key = (await app.registerCompany({ name: "Loja Cartão Ltda" })).secretKey
  })
  afterAll(() => app.stop())

  const create = (body: unknown, withKey = key) => app.request("POST", "/api/v2/invoices", { key: withKey, body })

  it("charges an approved card at once: paid, with card details, ledger, timeline and balance", async () => {
    const registered = await app.registerCompany()
    const reply = await create(cardRequest(), registered.secretKey)
    expect(reply.status).toBe(201)
    const invoice = reply.body
    expect(invoice).toMatchObject({
      status: "paid",
      paymentMethod: "credit_card",
      installments: 1,
      refusedReason: null
    })
    // Paid when the acquirer's answer was written, after the invoice's creation was asked for.
    expect(Date.parse(invoice.paidAt)).toBeGreaterThanOrEqual(Date.parse(invoice.createdAt))
    expect(invoice.card).toEqual({
      brand: "visa",
      first_digits: "411111",
      last_digits: "1111",
      holder_name: "Maria Souza",
      expiration_month: 12,
      expiration_year: Number(nextYear),
      three_d_secure: null
    })
    expect(invoice.card_associate).toMatchObject({ brand: "visa", last_digits: "1111", client_id: invoice.client.id })
    expect(invoice.boleto).toBeNull()
    expect(invoice.pix).toEqual({ qrCode: "" })
    expect(invoice.invoice.is_credit_card).toBe(true)
    expect(invoice.timeline.map((entry: { status: string }) => entry.status)).toEqual(["pending", "paid"])
    expect(invoice.fee).toEqual({ estimatedFee: 438, fixedAmount: 39, netAmount: 9_562, spreadPercentage: 3.99 })
    // The money waits for its receivable, due 30 days after the payment (on a business day): both entries are in
    // the waiting bucket, and the available balance has nothing of it yet (SPEC 13.1).
    expect(invoice.financial_movements).toEqual([
      expect.objectContaining({
        type: "payment",
        direction: "credit",
        amount: 10_000,
        balance: "card",
        bucket: "waiting"
      }),
      expect.objectContaining({ type: "fee", direction: "debit", amount: 438, balance: "card", bucket: "waiting" })
    ])
    expect(invoice.enterprise).toMatchObject({
      balance_card: 0,
      waiting_funds_card: 9_562,
      amount_invoice_total: 10_000,
      amount_invoices_competicion: 10_000
    })
    const company = await app.request("GET", "/api/v2/company", { key: registered.secretKey })
    expect([company.body.balance_card, company.body.waiting_funds_card]).toEqual([0, 9_562])
    const receivables = await app.request("GET", `/api/v2/receivables?invoice_id=${invoice.secureId}`, {
      key: registered.secretKey
    })
    const paidOn = BusinessCalendar.saoPauloDate(invoice.paidAt)
    expect(receivables.body.data).toEqual([
      expect.objectContaining({
        installment: 1,
        amount: 10_000,
        fee: 438,
        net_amount: 9_562,
        status: "waiting_funds",
        payment_date: BusinessCalendar.onBusinessDay(BusinessCalendar.plusDays(paidOn, 30))
      })
    ])

    const events = await app.query(
      `SELECT type, data->>'status' AS status FROM events WHERE invoice_id = ${Number(invoice.id)} ORDER BY type`
    )
    expect(events).toEqual([
      { type: "invoice.created", status: "pending" },
      { type: "invoice.paid", status: "paid" }
    ])
  })

  it.each([
    ["4000000000000002", "card_declined"],
    ["4000000000009995", "insufficient_funds"],
    ["4000000000000069", "expired_card"],
    ["4000000000000119", "processing_error"],
    ["4000002760003184", "authentication_required"]
  ])("refuses test card %s with %s: 201, no money moves", async (number, reason) => {
    const reply = await create(cardRequest({ number }))
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({ status: "refused", refusedReason: reason, paidAt: null })
    expect(reply.body.financial_movements).toEqual([])
    expect(reply.body.timeline.map((entry: { status: string }) => entry.status)).toEqual(["pending", "refused"])
    const events = await app.query(`SELECT type FROM events WHERE invoice_id = ${Number(reply.body.id)} ORDER BY type`)
    expect(events.map((event) => event.type)).toEqual(["invoice.created", "invoice.refused"])
  })

  it("approves the 3-D Secure test card when authenticated or attempted", async () => {
    for (const threeDs of [authenticated, attempted]) {
      const reply = await create(cardRequest({ number: "4000002760003184", ...threeDs }))
      expect(reply.body.status).toBe("paid")
      expect(reply.body.card.three_d_secure).toEqual({
        eci: threeDs.eci,
        version: "2.2.0",
        authenticated: threeDs === authenticated
      })
    }
    const withoutCavv = await create(cardRequest({ number: "4000002760003184", eci: "05" }))
    expect(withoutCavv.body).toMatchObject({ status: "refused", refusedReason: "authentication_required" })
  })

  it("once 3-D Secure is active, refuses unauthenticated payments of any card", async () => {
    const registered = await app.registerCompany()
    await app.request("POST", "/api/v2/exchange-token", { key: registered.secretKey })
    const plain = await create(cardRequest(), registered.secretKey)
    expect(plain.body).toMatchObject({ status: "refused", refusedReason: "authentication_required" })
    const wrongEci = await create(cardRequest({ eci: "07", cavv: "AAAB" }), registered.secretKey)
    expect(wrongEci.body).toMatchObject({ status: "refused", refusedReason: "authentication_required" })
    for (const threeDs of [authenticated, attempted]) {
      const reply = await create(cardRequest(threeDs), registered.secretKey)
      expect(reply.body.status).toBe("paid")
    }
    const declined = await create(cardRequest({ number: "4000000000000002", ...authenticated }), registered.secretKey)
    expect(declined.body).toMatchObject({ status: "refused", refusedReason: "card_declined" })
  })

  it.each([
    [1, 3.99],
    [2, 4.99],
    [6, 4.99],
    [7, 5.99],
    [12, 5.99]
  ])("charges %i installments with the plan's %s %% spread", async (installments, spread) => {
    const reply = await create(cardRequest({ installment: installments }, { total_price_cents: 60_000 }))
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({ status: "paid", installments })
    const fee = Math.round((60_000 * spread) / 100) + 39
    expect(reply.body.fee).toEqual({
      estimatedFee: fee,
      fixedAmount: 39,
      netAmount: 60_000 - fee,
      spreadPercentage: spread
    })
    const detail = reply.body.invoice
    expect(detail.value_seller + detail.value_platform + detail.value_adq + detail.value_indication).toBe(60_000)
  })

  it("answers 422 installment_too_small when an installment would be under R$ 5,00", async () => {
    const tooSmall = await create(cardRequest({ installment: 3 }, { total_price_cents: 1_499 }))
    expect(tooSmall.status).toBe(422)
    expect(tooSmall.body.code).toBe("installment_too_small")
    const justEnough = await create(cardRequest({ installment: 3 }, { total_price_cents: 1_500 }))
    expect(justEnough.status).toBe(201)
    const single = await create(cardRequest({ installment: 1 }, { total_price_cents: 100 }))
    expect(single.status).toBe(201)
  })

  it.each([
    [{ number: "4111 1111 1111 1112" }, "card.number"],
    [{ number: "1234" }, "card.number"],
    [{ month: "13" }, "card.month"],
    [{ year: "26" }, "card.year"],
    [{ year: "2020" }, "card.year"],
    [{ security_code: "12" }, "card.security_code"],
    [{ installment: 0 }, "card.installment"],
    [{ installment: 13 }, "card.installment"],
    [{ number: undefined }, "card.number"],
    [{ first_name: undefined }, "card.first_name"],
    [{ security_code: undefined }, "card.security_code"]
  ])("answers 400 for invalid card data %j", async (card, path) => {
    const reply = await create(cardRequest(card))
    expect(reply.status).toBe(400)
    expect(reply.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]))
    expect(JSON.stringify(reply.body)).not.toContain("4111")
  })

  it("creates a pending card invoice without card data, for the hosted checkout", async () => {
    const reply = await create(pixRequest({ method: "credit_card" }))
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({ status: "pending", card: null, card_associate: null, installments: 1 })
  })

  it("detects the brand, the most specific prefix winning", async () => {
    const brands: Array<[string, string]> = [
      ["5555555555554444", "mastercard"],
      ["378282246310005", "amex"],
      ["6362970000457013", "elo"],
      ["6062825624254001", "hipercard"],
      ["4111111111111111", "visa"]
    ]
    for (const [number, brand] of brands) {
      const reply = await create(cardRequest({ number, security_code: brand === "amex" ? "1234" : "123" }))
      expect(reply.body.card.brand, number).toBe(brand)
    }
  })

  it("keeps one card reference per distinct card per client", async () => {
    const payer = { name: "Rita", cpf_cnpj: "39053344705", email: "rita@example.com" }
    const first = await create(cardRequest({}, { payer }))
    const again = await create(cardRequest({}, { payer }))
    const other = await create(cardRequest({ number: "5555555555554444" }, { payer }))
    expect(again.body.card_associate.id).toBe(first.body.card_associate.id)
    expect(other.body.card_associate.id).not.toBe(first.body.card_associate.id)
  })

  /**
   * What is stored of a company's card payments: invoices, events, charges and card references, and what is kept
   * under an Idempotency-Key (a payer's is kept under its checkout token, not its company).
   */
  const storedOf = async (companyId: number, idempotencyKey: string) => {
    const count = async (table: string, where = `company_id = ${companyId}`) =>
      (await app.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`))[0]?.n
    return {
      invoices: await count("invoices"),
      events: await count("events"),
      charges: await count("card_charges"),
      cardReferences: await count("card_references"),
      idempotentAnswers: await count("idempotency_keys", `key = '${idempotencyKey}'`)
    }
  }

  it("answers 503 acquirer_unavailable for live card payments, and stores nothing of them", async () => {
    const registered = await app.registerCompany()
    const companyId = Number(registered.company.id)
    const live = await app.createKey(registered.company.id, "live")
    const reply = await app.request("POST", "/api/v2/invoices", {
      key: live.secretKey,
      body: cardRequest(),
      headers: { "idempotency-key": "live-card" }
    })
    expect([reply.status, reply.body.code]).toEqual([503, "acquirer_unavailable"])
    expect(await storedOf(companyId, "live-card")).toEqual({
      invoices: 0,
      events: 0,
      charges: 0,
      cardReferences: 0,
      idempotentAnswers: 0
    })
  })

  // Issue 24: with 3-D Secure on, a live payment without it used to be refused without asking the acquirer, and
  // recorded as a refused live invoice, although no acquirer could ever have taken it.
  it("answers 503 to a live card payment 3-D Secure would refuse, before anything is recorded", async () => {
    const registered = await app.registerCompany()
    const companyId = Number(registered.company.id)
    const live = await app.createKey(registered.company.id, "live")
    const activated = await app.request("POST", "/api/v2/exchange-token", { key: live.secretKey })
    expect(activated.body.is_active_3ds).toBe(true)

    const created = await app.request("POST", "/api/v2/invoices", {
      key: live.secretKey,
      body: cardRequest(),
      headers: { "idempotency-key": "live-unauthenticated" }
    })
    expect([created.status, created.body.code]).toEqual([503, "acquirer_unavailable"])
    expect(await storedOf(companyId, "live-unauthenticated")).toEqual({
      invoices: 0,
      events: 0,
      charges: 0,
      cardReferences: 0,
      idempotentAnswers: 0
    })

    // A live card invoice without card data waits for its payer; the payer's payment is refused the same way.
    const pending = await app.request("POST", "/api/v2/invoices", {
      key: live.secretKey,
      body: pixRequest({ method: "credit_card" })
    })
    expect([pending.status, pending.body.status]).toEqual([201, "pending"])
    const before = await storedOf(companyId, "live-payer")
    const paid = await app.request(
      "POST",
      `/api/v2/public/invoices/${pending.body.secureId}/pay?token=${pending.body.invoice.token_checkout}`,
      { body: { card: testCard }, headers: { "idempotency-key": "live-payer" } }
    )
    expect([paid.status, paid.body.code]).toEqual([503, "acquirer_unavailable"])
    expect(await storedOf(companyId, "live-payer")).toEqual(before)
    const after = await app.request("GET", `/api/v2/invoices?id=${pending.body.secureId}`, { key: live.secretKey })
    expect([after.body.status, after.body.card, after.body.card_associate]).toEqual(["pending", null, null])
  })

  it("answers 403 when the company is blocked for cards", async () => {
    const registered = await app.registerCompany()
    await app.setBlock(registered.company.id, "card", true)
    expect((await create(cardRequest(), registered.secretKey)).status).toBe(403)
  })
})
