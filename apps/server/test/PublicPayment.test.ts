// SPEC 4.7: the payer's side of a card payment — tokenizing the card with the public token, then paying a
// pending card invoice with the checkout token.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nextYear, pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

const card = (overrides: Record<string, unknown> = {}) => ({
  number: "4111 1111 1111 1111",
  first_name: "Maria",
  last_name: "Souza",
  month: "12",
  year: nextYear,
  security_code: "123",
  ...overrides
})

describe.each(testDatabases)("payments from the payer's side on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  const merchant = async () => {
    const { secretKey } = await app.registerCompany()
    const publicToken: string = (await app.request("POST", "/api/v2/exchange-token", { key: secretKey })).body
      .public_token
    const pending = async (total = 30_000) =>
      (
        await app.request("POST", "/api/v2/invoices", {
          key: secretKey,
          body: pixRequest({ method: "credit_card", total_price_cents: total })
        })
      ).body
    const tokenize = (body: unknown, key = publicToken) => app.request("POST", "/api/v2/public/cards", { key, body })
    const pay = (invoice: { secureId: string; invoice: { token_checkout: string } }, body: unknown, token?: string) =>
      app.request(
        "POST",
        `/api/v2/public/invoices/${invoice.secureId}/pay?token=${token ?? invoice.invoice.token_checkout}`,
        { body }
      )
    return { secretKey, publicToken, pending, tokenize, pay }
  }

  const authenticated = { eci: "05", cavv: "AAABBJg0VhI0VniQEjRWAAAAAAA=" }

  it("tokenizes a card with the public token, showing only what may be shown", async () => {
    const { tokenize } = await merchant()
    const reply = await tokenize(card())
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual({
      token: expect.stringMatching(/^card_[0-9A-Za-z]{32}$/),
      brand: "visa",
      first_digits: "411111",
      last_digits: "1111",
      expiration_month: 12,
      expiration_year: Number(nextYear)
    })
    const stored = (await app.dumpAllTables()).join("\n")
    expect(stored).not.toContain("4111111111111111")
    expect(stored).not.toContain(reply.body.token)
  })

  it("refuses tokenization without a valid public token, and checks the card", async () => {
    const { secretKey, tokenize } = await merchant()
    // The refusal names the credential this route takes: a public token, not the secret key of the merchant's routes.
    for (const key of [secretKey, "pk_test_00000000000000000000000000000000", "nonsense"]) {
      const refused = await tokenize(card(), key)
      expect(refused.status).toBe(401)
      expect(refused.body.message).toBe("a valid public token is required: Authorization: Bearer pk_…")
    }
    const without = await app.request("POST", "/api/v2/public/cards", { body: card() })
    expect(without.status).toBe(401)
    expect(without.body.message).toBe("a valid public token is required: Authorization: Bearer pk_…")
    for (const [override, path] of [
      [{ number: "4111 1111 1111 1112" }, "number"],
      [{ year: "2001" }, "year"],
      [{ security_code: "12" }, "security_code"]
    ] as const) {
      const reply = await tokenize(card(override))
      expect(reply.status).toBe(400)
      expect(reply.body.issues).toEqual([expect.objectContaining({ path })])
    }
  })

  it("pays a pending card invoice with a token, once: paid, with ledger, timeline and event", async () => {
    const { secretKey, pending, tokenize, pay } = await merchant()
    const invoice = await pending()
    const { token } = (await tokenize(card())).body
    const reply = await pay(invoice, { card: { token, installment: 3, ...authenticated } })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      secureId: invoice.secureId,
      status: "paid",
      installments: 3,
      refusedReason: null
    })
    const full = (await app.request("GET", `/api/v2/invoices?id=${invoice.secureId}`, { key: secretKey })).body
    expect(full.card).toMatchObject({
      brand: "visa",
      first_digits: "411111",
      last_digits: "1111",
      holder_name: "Maria Souza"
    })
    expect(full.card.three_d_secure).toEqual({ eci: "05", version: null, authenticated: true })
    expect(full.fee).toMatchObject({ spreadPercentage: 4.99 })
    expect(full.timeline.map((entry: { status: string }) => entry.status)).toEqual(["pending", "paid"])
    expect(full.financial_movements.map((entry: { type: string }) => entry.type)).toEqual(["payment", "fee"])
    const events = await app.query(`SELECT type FROM events WHERE invoice_id = ${Number(full.id)} ORDER BY seq`)
    expect(events.map((event) => event.type)).toEqual(["invoice.created", "invoice.paid"])

    const another = await pending()
    const reused = await pay(another, { card: { token, ...authenticated } })
    expect(reused.status).toBe(400)
    expect(reused.body.issues).toEqual([expect.objectContaining({ path: "card.token" })])
  })

  it("pays with card fields too, and answers a refusal with the reason", async () => {
    const { pending, pay } = await merchant()
    const declined = await pay(await pending(), { card: { ...card({ number: "4000000000000002" }), ...authenticated } })
    expect(declined.status).toBe(200)
    expect(declined.body).toMatchObject({ status: "refused", refusedReason: "card_declined" })
    const approved = await pay(await pending(), { card: { ...card(), ...authenticated } })
    expect(approved.body.status).toBe("paid")
  })

  it("keeps the sandbox's test cards behind a token", async () => {
    const { pending, tokenize, pay } = await merchant()
    const { token } = (await tokenize(card({ number: "4000000000009995" }))).body
    const reply = await pay(await pending(), { card: { token, ...authenticated } })
    expect(reply.body).toMatchObject({ status: "refused", refusedReason: "insufficient_funds" })
  })

  it("requires 3-D Secure once the company activated it", async () => {
    const { pending, tokenize, pay } = await merchant()
    const { token } = (await tokenize(card())).body
    const reply = await pay(await pending(), { card: { token } })
    expect(reply.body).toMatchObject({ status: "refused", refusedReason: "authentication_required" })
  })

  it("refuses an expired token, and another company's token", async () => {
    const first = await merchant()
    const second = await merchant()
    const { token } = (await first.tokenize(card())).body
    expect((await second.pay(await second.pending(), { card: { token, ...authenticated } })).status).toBe(400)
    const { token: stale } = (await first.tokenize(card())).body
    await app.query("UPDATE card_tokens SET expires_at = now() - interval '1 second' WHERE used_at IS NULL")
    const reply = await first.pay(await first.pending(), { card: { token: stale, ...authenticated } })
    expect(reply.status).toBe(400)
  })

  it("answers 409 for an invoice that is not a pending card invoice, and 404 for a wrong checkout token", async () => {
    const { secretKey, pending, pay } = await merchant()
    const pix = (await app.request("POST", "/api/v2/invoices", { key: secretKey, body: pixRequest() })).body
    expect((await pay(pix, { card: { ...card(), ...authenticated } })).status).toBe(409)
    const invoice = await pending()
    await pay(invoice, { card: { ...card(), ...authenticated } })
    const again = await pay(invoice, { card: { ...card(), ...authenticated } })
    expect(again.status).toBe(409)
    expect(again.body.code).toBe("invalid_state")
    const other = await pending()
    expect((await pay(other, { card: { ...card(), ...authenticated } }, "wrong")).status).toBe(404)
    expect((await pay(other, { card: { ...card(), ...authenticated } }, "")).status).toBe(404)
  })

  it("answers 422 installment_too_small here too", async () => {
    const { pending, pay } = await merchant()
    const reply = await pay(await pending(1_000), { card: { ...card(), installment: 3, ...authenticated } })
    expect(reply.status).toBe(422)
    expect(reply.body.code).toBe("installment_too_small")
  })
})
