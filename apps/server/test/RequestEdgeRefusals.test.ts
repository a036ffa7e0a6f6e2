// The request edge (issue 24): every 400 lists what is wrong, the Host header as RFC 9112 §3.2 has it, a path asked
// with a method it is not served with, and the contract's JSON with an X-Request-Id on what Node answers by itself.
// The money and text checks of the edge are RequestEdge.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkedFetch } from "./support/Contract.js"
import { inMemory } from "./support/InMemoryServices.js"
import { exchange, type RawReply } from "./support/RawHttp.js"
import { pixRequest, startApp, type TestApp } from "./support/TestApp.js"

describe.each([inMemory])("the request edge's refusals on $name", (database) => {
  let app: TestApp
  let port: number

  beforeAll(async () => {
    app = await startApp(database)
    port = Number(new URL(app.baseUrl).port)
  })
  afterAll(() => app.stop())

  /** A company of its own, and its test key. */
  const merchant = async () => {
    const registered = await app.registerCompany()
    return { ...registered, key: registered.secretKey }
  }

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
