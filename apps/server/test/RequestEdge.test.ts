// The request edge (issue 14): one understanding of each request, so that no spelling of it moves money twice or
// reaches the database unchecked — the credential's scheme in any case, one spelling per route, idempotency scoped
// by the authenticated principal and its mode (on the payer's side too), text checked where it is decoded, metrics
// by the matched route, and the contract's JSON on what Node answers by itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkedFetch } from "./support/Contract.js"
import { inMemory } from "./support/InMemoryServices.js"
import { exchange, type RawReply, send } from "./support/RawHttp.js"
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

  describe("every 400 lists what is wrong, one issue at least (issue 24, item 3)", () => {
    const post = (key: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
      checkedFetch(`${app.baseUrl}/api/v2/invoices`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
        body
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }))

    it("a body that is not JSON: what is wrong and where, at the root, never quoting the body", async () => {
      const { key } = await merchant()
      const cases: ReadonlyArray<readonly [string, string]> = [
        ['{"method": "pix",}', "expected a property name in double quotes at position 17 (line 1, column 18)"],
        [
          '{\n  "method": "pix"\n  "total_price_cents": 100\n}',
          "expected ',' or '}' at position 22 (line 3, column 3)"
        ],
        ['{"card": {"number": 4111111111111111x}}', "expected ',' or '}' at position 36 (line 1, column 37)"],
        ["{'method': 'pix'}", "expected a property name in double quotes or '}' at position 1 (line 1, column 2)"],
        ['{"method": "pix"', "the JSON ends too soon at position 16 (line 1, column 17)"],
        ["4111111111111111 1234", "text after the JSON value at position 17 (line 1, column 18)"]
      ]
      for (const [body, where] of cases) {
        const reply = await post(key, body)
        expect(reply.status, body).toBe(400)
        expect(reply.body, body).toEqual({
          code: "invalid_request",
          message: `is not valid JSON: ${where}`,
          issues: [{ path: "", message: `is not valid JSON: ${where}` }]
        })
        expect(JSON.stringify(reply.body), body).not.toContain("411111")
      }
    })

    it("a body that is neither UTF-8 nor JSON: the offset of its first bad byte, at the root", async () => {
      const { key } = await merchant()
      const reply = await post(key, Buffer.from([0x7b, 0x20, 0x61, 0xe3, 0x6f, 0x20]))
      expect(reply.status).toBe(400)
      expect(reply.body.issues).toEqual([{ path: "", message: "is not valid UTF-8 at byte 3" }])
    })

    it("whatever else the edge refuses with a 400", async () => {
      const { key } = await merchant()
      const raw = (text: string) => exchange(port, Buffer.from(text, "latin1"))
      const replies: ReadonlyArray<readonly [string, { status: number; body: any }]> = [
        ["a NUL in a string", await post(key, JSON.stringify(pixRequest({ external_ref: "a\u0000b" })))],
        ["a string too long", await post(key, JSON.stringify(pixRequest({ external_ref: "x".repeat(10_001) })))],
        ["nesting too deep", await post(key, `${"[".repeat(40)}${"]".repeat(40)}`)],
        ["a field missing", await post(key, JSON.stringify({ method: "pix" }))],
        ["a malformed Idempotency-Key", await post(key, JSON.stringify(pixRequest()), { "idempotency-key": "" })],
        ["a query that is not UTF-8", await app.request("GET", "/api/v2/invoices?id=%ff", { key })],
        ["a query parameter missing", await app.request("GET", "/api/v2/invoices", { key })],
        ["no Host", await raw("GET /health HTTP/1.1\r\nconnection: close\r\n\r\n")],
        ["a request Node cannot parse", await raw("HELLO\r\n\r\n")],
        [
          "a malformed chunk",
          await raw(
            `POST /api/v2/invoices HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\n` +
              "content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
          )
        ]
      ]
      for (const [what, reply] of replies) {
        expect(reply.status, what).toBe(400)
        expect(reply.body.code, what).toBe("invalid_request")
        expect(reply.body.issues?.length, what).toBeGreaterThanOrEqual(1)
        for (const issue of reply.body.issues) {
          expect(issue, what).toEqual({ path: expect.any(String), message: expect.any(String) })
        }
      }
      const byName = new Map(replies)
      expect(byName.get("a request Node cannot parse")!.body).toEqual({
        code: "invalid_request",
        message: "the request could not be parsed",
        issues: [{ path: "", message: "could not be parsed at byte 2: invalid method encountered" }]
      })
      expect(byName.get("no Host")!.body.issues).toEqual([{ path: "Host", message: "is required" }])
    })
  })

  describe("the Host header (RFC 9112 §3.2; issue 24, item 11)", () => {
    const withHost = (...hosts: ReadonlyArray<string>) =>
      exchange(
        port,
        Buffer.from(
          `GET /health HTTP/1.1\r\n${hosts.map((host) => `Host: ${host}\r\n`).join("")}connection: close\r\n\r\n`,
          "latin1"
        )
      )

    it("refuses a request that names its host twice, the same or another", async () => {
      for (const hosts of [
        ["fatura.test", "fatura.test"],
        ["fatura.test", "evil.example"],
        ["fatura.test:3000", "127.0.0.1"]
      ]) {
        const reply = await withHost(...hosts)
        expect(reply.status, hosts.join(" + ")).toBe(400)
        expect(reply.body, hosts.join(" + ")).toEqual({
          code: "invalid_request",
          message: "Host: must be sent once",
          issues: [{ path: "Host", message: "must be sent once" }]
        })
      }
      // In any case of the name.
      const cased = await exchange(
        port,
        Buffer.from("GET /health HTTP/1.1\r\nhost: a.test\r\nHOST: b.test\r\nconnection: close\r\n\r\n", "latin1")
      )
      expect(cased.status).toBe(400)
    })

    it("refuses a Host that names no host, and takes every form of one", async () => {
      for (const host of [
        "",
        "a b",
        "fatura.test/x",
        "user@fatura.test",
        "fatura.test:80:80",
        "[::1",
        "fatura.test:x"
      ]) {
        const reply = await withHost(host)
        expect(reply.status, JSON.stringify(host)).toBe(400)
        expect(reply.body.issues, JSON.stringify(host)).toEqual([
          { path: "Host", message: "must be a host name or address, with an optional port" }
        ])
      }
      for (const host of [
        "fatura.test",
        "FATURA.test:3000",
        "127.0.0.1",
        "127.0.0.1:8080",
        "[::1]:3000",
        "localhost:"
      ]) {
        expect((await withHost(host)).status, host).toBe(200)
      }
    })

    it("takes an HTTP/1.0 request without one", async () => {
      const reply = await exchange(port, Buffer.from("GET /health HTTP/1.0\r\n\r\n", "latin1"))
      expect(reply.status).toBe(200)
    })
  })

  describe("a path asked with a method it is not served with (issue 24, item 17)", () => {
    it("answers 405 with the path's methods in Allow, on the API, the pages and the documents", async () => {
      const { key } = await merchant()
      const secureId = crypto.randomUUID()
      for (const [method, path, allow] of [
        ["PUT", "/api/v2/invoices", "GET, HEAD, POST"],
        ["DELETE", "/api/v2/invoices?id=1", "GET, HEAD, POST"],
        ["GET", "/api/v2/invoices/refund", "POST"],
        ["PATCH", `/api/v2/public/invoices/${secureId}/pay`, "POST"],
        ["DELETE", `/api/v2/public/invoices/${secureId}`, "GET, HEAD"],
        ["GET", "/api/v2/exchange-token", "POST"],
        ["POST", "/health", "GET, HEAD"],
        ["OPTIONS", "/health", "GET, HEAD"],
        ["POST", `/checkout/${secureId}?token=x`, "GET, HEAD"],
        ["POST", "/openapi.json", "GET, HEAD"],
        ["PUT", "/docs", "GET, HEAD"],
        ["GET", "/pix-api/webhook/pix", "POST"]
      ] as const) {
        const reply =
          path === "/pix-api/webhook/pix"
            ? await fetch(`${app.baseUrl}${path}`, { method }).then(async (response) => ({
                status: response.status,
                headers: response.headers,
                body: await response.json()
              }))
            : await app.request(method, path, { key })
        expect(reply.status, `${method} ${path}`).toBe(405)
        expect(reply.headers.get("allow"), `${method} ${path}`).toBe(allow)
        expect(reply.body, `${method} ${path}`).toEqual({
          code: "method_not_allowed",
          message: `this path is served with ${allow} only`
        })
      }
    })

    it("still answers 404 to a path no route has, and to another spelling of one that has", async () => {
      for (const [method, path] of [
        ["PUT", "/api/v2/nothing"],
        ["PUT", "/api/v2/invoices/"],
        ["PUT", "/API/v2/invoices"],
        ["POST", "/api/v2/public/invoices"]
      ] as const) {
        const reply = await app.request(method, path)
        expect(reply.status, `${method} ${path}`).toBe(404)
        expect(reply.headers.get("allow"), `${method} ${path}`).toBeNull()
      }
    })
  })

  describe("Node's own answers are the contract's JSON with an X-Request-Id (item 12)", () => {
    const expectContractError = (reply: RawReply, status: number, code: string) => {
      expect(reply.status).toBe(status)
      expect(reply.headers.get("content-type")).toContain("application/json")
      expect(reply.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]{8,128}$/)
      expect(reply.body).toMatchObject({ code, message: expect.any(String) })
    }
    const raw = (text: string) => exchange(port, Buffer.from(text, "latin1"))

    it("a request without a Host header", async () => {
      expectContractError(await raw("GET /health HTTP/1.1\r\nconnection: close\r\n\r\n"), 400, "invalid_request")
    })

    it("headers too large (431)", async () => {
      const reply = await raw(`GET /health HTTP/1.1\r\nhost: x\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`)
      expectContractError(reply, 431, "invalid_request")
    })

    it("a CONNECT", async () => {
      expectContractError(
        await raw("CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n"),
        404,
        "not_found"
      )
    })

    it("a malformed chunk", async () => {
      const { key } = await merchant()
      const reply = await raw(
        `POST /api/v2/invoices HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\n` +
          "transfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
      )
      expectContractError(reply, 400, "invalid_request")
    })

    it("a request line that is not HTTP", async () => {
      expectContractError(await raw("HELLO\r\n\r\n"), 400, "invalid_request")
    })
  })
})
