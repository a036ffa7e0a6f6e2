// SPEC 6.3: a card number or security code never reaches a database column, a log line, a response or an event.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cardRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

const cards = [
  { number: "4111111111111111", security_code: "7351" },
  { number: "5555555555554444", security_code: "864" },
  { number: "4000000000000002", security_code: "592" },
  { number: "4000002760003184", security_code: "418", eci: "05", cavv: "AAABBJg0VhI0VniQEjRWAAAAAAA=" },
  { number: "6362970000457013", security_code: "906" }
]

/** Every form the number could take in text: plain, grouped, or dashed. */
const forms = (number: string) => [
  number,
  number.replace(/(\d{4})(?=\d)/g, "$1 "),
  number.replace(/(\d{4})(?=\d)/g, "$1-")
]

describe.each(testDatabases)("card data on $name", (database) => {
  let app: TestApp
  const responses: Array<string> = []

  beforeAll(async () => {
    app = await startApp(database)
    const { secretKey } = await app.registerCompany()
    const publicToken: string = (await app.request("POST", "/api/v2/exchange-token", { key: secretKey })).body
      .public_token
    for (const [index, card] of cards.entries()) {
      for (const idempotencyKey of [`card-${index}`, `card-${index}`, undefined]) {
        const headers: Record<string, string> =
          idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }
        const formatted = { ...card, number: forms(card.number)[index % 3] }
        const reply = await app.request("POST", "/api/v2/invoices", {
          key: secretKey,
          body: cardRequest(formatted),
          headers
        })
        expect(reply.status).toBe(201)
        responses.push(JSON.stringify(reply.body))
      }
      // The payer's side: tokenized with the public token, then paid with the token and with the fields, each with an
      // Idempotency-Key, whose stored fingerprint stands for the card data of its request.
      const tokenized = await app.request("POST", "/api/v2/public/cards", {
        key: publicToken,
        headers: { "idempotency-key": `tokenize-${index}` },
        body: {
          number: card.number,
          security_code: card.security_code,
          first_name: "Ana",
          last_name: "Lima",
          month: "12",
          year: "2031"
        }
      })
      expect(tokenized.status).toBe(201)
      responses.push(JSON.stringify(tokenized.body))
      const threeDs = { eci: "05", cavv: "AAABBJg0VhI0VniQEjRWAAAAAAA=" }
      for (const payment of [
        { token: tokenized.body.token, ...threeDs },
        {
          number: card.number,
          security_code: card.security_code,
          first_name: "Ana",
          last_name: "Lima",
          month: "12",
          year: "2031",
          ...threeDs
        }
      ]) {
        const pending = (
          await app.request("POST", "/api/v2/invoices", { key: secretKey, body: cardRequest({}, { card: undefined }) })
        ).body
        const paid = await app.request(
          "POST",
          `/api/v2/public/invoices/${pending.secureId}/pay?token=${pending.invoice.token_checkout}`,
          { body: { card: payment }, headers: { "idempotency-key": `pay-${index}` } }
        )
        expect(paid.status).toBe(200)
        responses.push(JSON.stringify(paid.body))
      }
      // Refused requests carry the card too: a bad expiry, and a wrong type elsewhere in the body.
      const expired = await app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: cardRequest({ ...card, year: "2001" })
      })
      expect(expired.status).toBe(400)
      responses.push(JSON.stringify(expired.body))
      const wrongType = await app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: cardRequest({ ...card, number: Number(card.number), security_code: Number(card.security_code) })
      })
      expect(wrongType.status).toBe(400)
      responses.push(JSON.stringify(wrongType.body))
    }
  })
  afterAll(() => app.stop())

  const expectClean = (texts: ReadonlyArray<string>, where: string, { mayNameField = false } = {}) => {
    for (const card of cards) {
      for (const text of texts) {
        for (const form of forms(card.number)) expect(text.includes(form), `${where} holds ${form}`).toBe(false)
        expect(text.includes(`"${card.security_code}"`), `${where} holds the CVV ${card.security_code}`).toBe(false)
        expect(text.includes(`:${card.security_code},`), `${where} holds the CVV ${card.security_code}`).toBe(false)
        if (!mayNameField) expect(text.includes("security_code"), `${where} names the security code`).toBe(false)
      }
    }
  }

  it("stores neither in any column of any table", async () => {
    const rows = await app.dumpAllTables()
    expect(rows.length).toBeGreaterThan(cards.length * 3)
    expectClean(rows, "a table")
  })

  it("stores the fingerprint of each request with card data an Idempotency-Key ran, and it is no card data", async () => {
    const stored = await app.query(
      "SELECT endpoint, count(*)::int AS n FROM idempotency_keys WHERE response_status IS NOT NULL GROUP BY endpoint"
    )
    expect(stored).toEqual(
      expect.arrayContaining([
        { endpoint: "POST /api/v2/invoices", n: cards.length },
        { endpoint: "POST /api/v2/public/cards", n: cards.length },
        // With a card token, and with the card's fields.
        { endpoint: "POST /api/v2/public/invoices/:secureId/pay", n: cards.length * 2 }
      ])
    )
    const hashes = await app.query("SELECT request_hash FROM idempotency_keys")
    for (const { request_hash } of hashes) expect(request_hash).toMatch(/^[0-9a-f]{64}$/)
    expectClean(
      hashes.map((row) => String(row.request_hash)),
      "a fingerprint"
    )
  })

  it("logs neither", () => {
    expect(app.logs.length).toBeGreaterThan(0)
    expectClean(app.logs, "a log line")
  })

  it("returns neither, not even in an error", () => {
    // An error may say which field was wrong (`card.security_code`), never what was in it.
    expectClean(responses, "a response", { mayNameField: true })
  })

  it("keeps what identifies a card without revealing it", async () => {
    const rows = await app.query("SELECT card->>'firstDigits' AS first, card->>'lastDigits' AS last FROM invoices")
    expect(rows).toContainEqual({ first: "411111", last: "1111" })
  })
})
