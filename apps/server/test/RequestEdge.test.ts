// The request edge (issue 14): one understanding of each request, so that no spelling of it moves money twice or
// reaches the database unchecked — the credential's scheme in any case, one spelling per route, idempotency scoped
// by the authenticated principal and its mode (on the payer's side too), text checked where it is decoded, metrics
// by the matched route, and the contract's JSON on what Node answers by itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkedFetch } from "./support/Contract.js"
import { inMemory } from "./support/InMemoryServices.js"
import { send } from "./support/RawHttp.js"
import { cardRequest, pixRequest, startApp, type TestApp, testCard } from "./support/TestApp.js"

const metricsToken = "request-edge-metrics-token"

describe.each([inMemory])("the request edge on $name", (database) => {
  let app: TestApp
  let port: number

  beforeAll(async () => {
    app = await startApp(database, { metricsToken })
    port = Number(new URL(app.baseUrl).port)
  })
  afterAll(() => app.stop())

  const merchant = async () => {
    const registered = await app.registerCompany()
    const key = registered.secretKey
    /** A paid card invoice of 10 000, whose balance (9 562 after the fee) covers a refund of 1 000 several times. */
    const paidInvoice = async () => {
      const created = await app.request("POST", "/api/v2/invoices", { key, body: cardRequest() })
      expect(created.body.status).toBe("paid")
      return created.body as { secureId: string; id: number }
    }
    const refundedAmount = async (secureId: string) =>
      (await app.request("GET", `/api/v2/invoices?id=${secureId}`, { key })).body.refundedAmount as number
    return { ...registered, key, paidInvoice, refundedAmount }
  }

  const rawRefund = (target: string, key: string, idempotencyKey: string, secureId: string) =>
    send(port, {
      method: "POST",
      target,
      headers: [
        ["authorization", `Bearer ${key}`],
        ["content-type", "application/json"],
        ["idempotency-key", idempotencyKey]
      ],
      body: JSON.stringify({ id: secureId, amount: 1_000 })
    })

  describe("money moves once per Idempotency-Key", () => {
    it("whatever the case of the credential's scheme (item 1)", async () => {
      const { key, paidInvoice, refundedAmount } = await merchant()
      const invoice = await paidInvoice()
      const replies = []
      for (const scheme of ["Bearer", "bearer", "BEARER", "bEaReR"]) {
        replies.push(
          await app.request("POST", "/api/v2/invoices/refund", {
            body: { id: invoice.secureId, amount: 1_000 },
            headers: { authorization: `${scheme} ${key}`, "idempotency-key": "refund-scheme" }
          })
        )
      }
      expect(replies.map((reply) => reply.status)).toEqual([201, 201, 201, 201])
      expect(replies.slice(1).map((reply) => reply.headers.get("idempotent-replayed"))).toEqual([
        "true",
        "true",
        "true"
      ])
      expect(await refundedAmount(invoice.secureId)).toBe(1_000)
    })

    it("whatever the spelling of the path: one spelling per route, every other one is an unknown route (item 2)", async () => {
      const { key, paidInvoice, refundedAmount } = await merchant()
      const invoice = await paidInvoice()
      const first = await rawRefund("/api/v2/invoices/refund", key, "refund-path", invoice.secureId)
      expect(first.status).toBe(201)
      for (const spelling of [
        "/api/v2/invoices/refund/",
        "//api/v2/invoices/refund",
        "/api//v2/invoices/refund",
        "/API/v2/invoices/refund",
        "/api/v2/Invoices/refund",
        "/api/v2/%69nvoices/refund",
        "/api/v2/invoices/refun%64",
        "/api/v2/invoices/refund;x=1",
        "/api/v2/./invoices/refund",
        "/api/v2/x/../invoices/refund"
      ]) {
        const reply = await rawRefund(spelling, key, "refund-path", invoice.secureId)
        expect(reply.status, spelling).toBe(404)
        expect(reply.body, spelling).toMatchObject({ code: "not_found" })
      }
      // The absolute form names the same route (RFC 9112 §3.2.2): it is that route's repeat, replayed.
      const absolute = await rawRefund(
        `http://127.0.0.1:${port}/api/v2/invoices/refund`,
        key,
        "refund-path",
        invoice.secureId
      )
      expect(absolute.status).toBe(201)
      expect(absolute.headers.get("idempotent-replayed")).toBe("true")
      expect(await refundedAmount(invoice.secureId)).toBe(1_000)
    })

    it("never across modes: a test key's Idempotency-Key means nothing to the live key of the same company (item 3)", async () => {
      const { key, company } = await merchant()
      const live = await app.createKey(company.id, "live")
      const body = pixRequest({ external_ref: "mode-scope" })
      const asTest = await app.request("POST", "/api/v2/invoices", {
        key,
        body,
        headers: { "idempotency-key": "same-key" }
      })
      const asLive = await app.request("POST", "/api/v2/invoices", {
        key: live.secretKey,
        body,
        headers: { "idempotency-key": "same-key" }
      })
      expect(asTest.status).toBe(201)
      expect(asLive.status).toBe(201)
      expect(asLive.headers.get("idempotent-replayed")).toBeNull()
      expect(asLive.body.id).not.toBe(asTest.body.id)
      // The live invoice is live: a test key does not see it.
      expect((await app.request("GET", `/api/v2/invoices?id=${asLive.body.secureId}`, { key })).status).toBe(404)
      const liveAgain = await app.request("POST", "/api/v2/invoices", {
        key: live.secretKey,
        body,
        headers: { "idempotency-key": "same-key" }
      })
      expect(liveAgain.headers.get("idempotent-replayed")).toBe("true")
      expect(liveAgain.body).toEqual(asLive.body)
    })

    it("on the payer's side too: a repeated payment with its key is replayed, not refused (item 4)", async () => {
      const { key } = await merchant()
      const pending = (
        await app.request("POST", "/api/v2/invoices", {
          key,
          body: { ...cardRequest(), card: undefined }
        })
      ).body
      expect(pending.status).toBe("pending")
      const publicToken = (await app.request("POST", "/api/v2/exchange-token", { key })).body.public_token
      const tokenize = () =>
        app.request("POST", "/api/v2/public/cards", {
          body: testCard,
          headers: { authorization: `Bearer ${publicToken}`, "idempotency-key": "tokenize-once" }
        })
      const card = await tokenize()
      const cardAgain = await tokenize()
      expect(card.status).toBe(201)
      expect(cardAgain.headers.get("idempotent-replayed")).toBe("true")
      expect(cardAgain.body.token).toBe(card.body.token)

      const pay = () =>
        app.request("POST", `/api/v2/public/invoices/${pending.secureId}/pay?token=${pending.invoice.token_checkout}`, {
          body: { card: { token: card.body.token, eci: "05", cavv: "AAABBJg0VhI0VniQEjRWAAAAAAA=" } },
          headers: { "idempotency-key": "pay-once" }
        })
      const paid = await pay()
      const paidAgain = await pay()
      expect(paid.status).toBe(200)
      expect(paid.body.status).toBe("paid")
      expect(paidAgain.status).toBe(200)
      expect(paidAgain.headers.get("idempotent-replayed")).toBe("true")
      expect(paidAgain.body).toEqual(paid.body)
      const movements = (await app.request("GET", `/api/v2/invoices?id=${pending.secureId}`, { key })).body
        .financial_movements
      expect(movements.filter((entry: { type: string }) => entry.type === "payment")).toHaveLength(1)
    })
  })

  describe("text is checked where it is decoded", () => {
    it("refuses a NUL in any stored string of the body with a 400 naming the field (item 5)", async () => {
      const { key } = await merchant()
      const cases: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
        ["payer.name", pixRequest({ payer: { ...pixRequest().payer, name: "Maria\u0000Souza" } })],
        ["items.0.name", pixRequest({ items: [{ name: "P\u0000o", quantity: 1, unit_price: 12_345 }] })],
        ["payer.address_line", pixRequest({ payer: { ...pixRequest().payer, address_line: "Rua\u0000A" } })],
        ["metadata.order", pixRequest({ metadata: { order: "A-\u00001" } })],
        ["metadata", pixRequest({ metadata: { "or\u0000der": "1" } })],
        ["external_ref", pixRequest({ external_ref: "ref\u0000" })]
      ]
      for (const [path, body] of cases) {
        const reply = await app.request("POST", "/api/v2/invoices", { key, body })
        expect(reply.status, path).toBe(400)
        expect(reply.body.code, path).toBe("invalid_request")
        expect(reply.body.issues[0].path, path).toBe(path)
      }
      expect((await app.request("GET", "/api/v2/invoices/list", { key })).body.data).toEqual([])
    })

    it("refuses a lone surrogate in a stored string (item 5)", async () => {
      const { key } = await merchant()
      for (const name of ["A\ud800B", "A\udc00", "\ud800"]) {
        const reply = await app.request("POST", "/api/v2/invoices", {
          key,
          rawBody: JSON.stringify(pixRequest({ payer: { ...pixRequest().payer, name } }))
        })
        expect(reply.status).toBe(400)
        expect(reply.body.issues).toEqual([{ path: "payer.name", message: expect.stringContaining("surrogate") }])
      }
      // A well-formed pair is text like any other.
      const emoji = await app.request("POST", "/api/v2/invoices", {
        key,
        body: pixRequest({ payer: { ...pixRequest().payer, name: "Maria 😀" } })
      })
      expect(emoji.status).toBe(201)
    })

    it("refuses a NUL or malformed percent-encoding in a query value with a 400 naming the parameter (item 5)", async () => {
      const { key } = await merchant()
      for (const [query, path] of [
        ["/api/v2/invoices/list?starting_after=%00", "starting_after"],
        ["/api/v2/invoices/list?external_ref=a%00b", "external_ref"],
        ["/api/v2/events?invoice_id=%00", "invoice_id"],
        ["/api/v2/webhooks/deliveries?event_id=evt_%00", "event_id"],
        ["/api/v2/invoices?id=%ff", "id"],
        ["/api/v2/invoices?id=%ed%a0%80", "id"],
        ["/api/v2/invoices?id=%zz", "id"]
      ] as const) {
        const reply = await app.request("GET", query, { key })
        expect(reply.status, query).toBe(400)
        expect(reply.body.issues?.[0]?.path, query).toBe(path)
      }
      // A path no route answers is a 404 whatever its query holds.
      expect((await app.request("GET", "/api/v2/nothing?id=%00", { key })).status).toBe(404)
    })

    it("refuses a body that is not UTF-8 with a 400 naming the field, and a charset other than UTF-8 with 415 (item 6)", async () => {
      const { key } = await merchant()
      const json = JSON.stringify(pixRequest({ payer: { ...pixRequest().payer, name: "Jo@o" } }))
      const bytes = Buffer.from(json, "utf8")
      // "Jo\xE3o": São Paulo's "ã" in Latin-1, which is no UTF-8.
      bytes[bytes.indexOf("@")] = 0xe3
      const invalid = await checkedFetch(`${app.baseUrl}/api/v2/invoices`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: bytes
      })
      expect(invalid.status).toBe(400)
      expect(await invalid.json()).toMatchObject({
        code: "invalid_request",
        issues: [{ path: "payer.name", message: "is not valid UTF-8" }]
      })
      for (const charset of ["iso-8859-1", "latin1", "utf-16", "windows-1252"]) {
        const reply = await app.request("POST", "/api/v2/invoices", {
          key,
          body: pixRequest(),
          headers: { "content-type": `application/json; charset=${charset}` }
        })
        expect(reply.status, charset).toBe(415)
        expect(reply.body.code, charset).toBe("unsupported_media_type")
      }
      for (const charset of ["utf-8", "UTF-8", '"utf-8"']) {
        const reply = await app.request("POST", "/api/v2/invoices", {
          key,
          body: pixRequest(),
          headers: { "content-type": `application/json; charset=${charset}` }
        })
        expect(reply.status, charset).toBe(201)
      }
      expect((await app.request("GET", "/api/v2/invoices/list", { key })).body.data).toHaveLength(3)
    })
  })

  it("labels metrics by the matched route only, so no client can grow them (item 11)", async () => {
    const scrape = async () =>
      (await checkedFetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text()
    // Every series these requests could touch, and the scrape's own, exists before the measure.
    await app.request("GET", `/health;${crypto.randomUUID()}`)
    await scrape()
    const before = await scrape()
    const invented = Array.from({ length: 300 }, () => crypto.randomUUID())
    for (const [index, random] of invented.entries()) {
      const path = [`/health;${random}`, `/health/${random}`, `/${random}`][index % 3]!
      expect((await app.request("GET", path)).status).toBe(404)
    }
    const after = await scrape()
    for (const random of invented) expect(after).not.toContain(random)
    expect(after.split("\n").length).toBe(before.split("\n").length)
    expect(after).toMatch(/fatura_http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/)
  })
})
