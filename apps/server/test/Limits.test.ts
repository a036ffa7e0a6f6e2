// SPEC 10: the limits every request meets — body size (413), JSON nesting and string sizes (400), headers that
// arrive too slowly (408), and the per-key rate limit (429 with Retry-After, then success after waiting).
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkedFetch } from "./support/Contract.js"
import { inMemory } from "./support/InMemoryServices.js"
import { pixRequest, startApp, type TestApp } from "./support/TestApp.js"

const mebibyte = 1024 * 1024

const bodyOf = (response: Response): Promise<any> => response.json()

/** Nested `{ "a": … }` objects, `levels` deep counting the outermost. */
const nested = (levels: number): unknown => (levels === 1 ? { a: 1 } : { a: nested(levels - 1) })

describe.each([inMemory])("request limits on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database, { rateLimitPerKey: 5 })
  })
  afterAll(() => app.stop())

  const freshKey = async () => (await app.registerCompany()).secretKey

  const post = (key: string, body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    checkedFetch(`${app.baseUrl}/api/v2/invoices`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body,
      ...(typeof body === "string" ? {} : { duplex: "half" })
    } as RequestInit)

  /** A valid pix request padded with spaces to exactly `bytes` bytes. */
  const padded = (bytes: number) => {
    const json = JSON.stringify(pixRequest())
    return json + " ".repeat(bytes - Buffer.byteLength(json))
  }

  it("takes a body of exactly 1 MiB and refuses one byte more with 413", async () => {
    const key = await freshKey()
    const atLimit = await post(key, padded(mebibyte))
    expect(atLimit.status).toBe(201)
    const over = await post(key, padded(mebibyte + 1))
    expect(over.status).toBe(413)
    expect(await bodyOf(over)).toEqual({ code: "payload_too_large", message: "the request body is over 1048576 bytes" })
  })

  it("refuses a chunked body that grows past 1 MiB without announcing its size", async () => {
    const key = await freshKey()
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode(JSON.stringify(pixRequest())))
        if (sent > 2 * mebibyte) return controller.close()
        sent += chunk.length
        controller.enqueue(chunk)
      }
    })
    const reply = await post(key, body).catch((error: unknown) => error)
    // The server answers 413 as soon as the limit is crossed; the client may still be writing and see the reset.
    if (reply instanceof Response) {
      expect(reply.status).toBe(413)
      expect((await bodyOf(reply)).code).toBe("payload_too_large")
    } else {
      expect(String(reply)).toMatch(/fetch failed|other side closed|ECONNRESET|EPIPE/)
    }
    const listed = await app.request("GET", "/api/v2/invoices/list", { key })
    expect(listed.body.data).toEqual([])
  })

  it("refuses JSON nested deeper than 32 levels, and takes 32", async () => {
    const key = await freshKey()
    const atLimit = await post(key, JSON.stringify({ ...pixRequest(), note: nested(31) }))
    expect(atLimit.status).toBe(201)
    const over = await post(key, JSON.stringify({ ...pixRequest(), note: nested(32) }))
    expect(over.status).toBe(400)
    const body = await bodyOf(over)
    expect(body.code).toBe("invalid_request")
    expect(body.issues).toEqual([{ path: `note${".a".repeat(31)}`, message: "nests deeper than 32 levels" }])
  })

  it("refuses strings and keys over 10 000 characters, and takes 10 000", async () => {
    const key = await freshKey()
    const atLimit = await post(key, JSON.stringify({ ...pixRequest(), note: "x".repeat(10_000) }))
    expect(atLimit.status).toBe(201)
    const longValue = await post(key, JSON.stringify({ ...pixRequest(), note: "x".repeat(10_001) }))
    expect(longValue.status).toBe(400)
    expect((await bodyOf(longValue)).issues).toEqual([{ path: "note", message: "must be at most 10000 characters" }])
    const longKey = await post(key, JSON.stringify({ ...pixRequest(), ["k".repeat(10_001)]: 1 }))
    expect(longKey.status).toBe(400)
    expect((await bodyOf(longKey)).issues).toEqual([{ path: "", message: "has a key longer than 10000 characters" }])
  })

  it("answers 408 to a client whose headers do not arrive within 10 seconds", async () => {
    const { port, hostname } = new URL(app.baseUrl)
    const started = Date.now()
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write("GET /health HTTP/1.1\r\nHost: fatura.test\r\n")
        // One more header line every 2 seconds, never the blank line that ends them.
        const trickle = setInterval(() => socket.write("X-Slow: yes\r\n"), 2_000)
        socket.on("close", () => clearInterval(trickle))
      })
      let received = ""
      socket.on("data", (data) => {
        received += data.toString()
      })
      socket.on("close", () => resolve(received))
      socket.on("error", reject)
    })
    const elapsed = Date.now() - started
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
    expect(answer).toMatch(/\r\nx-request-id: [A-Za-z0-9._-]{8,128}\r\n/)
    expect(answer).toContain('{"code":"request_timeout","message":"the request was not received in time"}')
    expect(elapsed).toBeGreaterThanOrEqual(10_000)
  })

  it("limits each key to its rate with 429 and Retry-After, and lets it through again after waiting", async () => {
    const key = await freshKey()
    const other = await freshKey()
    const company = (secretKey: string, scheme = "Bearer") =>
      app.request("GET", "/api/v2/company", { headers: { authorization: `${scheme} ${secretKey}` } })
    // A burst of twice the rate (10) goes through; the requests after it, sent at once, do not — whatever the case of
    // the scheme, which names the same key (RFC 9110 §11.1).
    const schemes = ["Bearer", "bearer", "BEARER", "bEaReR"]
    const replies = await Promise.all(Array.from({ length: 16 }, (_, index) => company(key, schemes[index % 4])))
    const statuses = replies.map((reply) => reply.status)
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(10)
    const limited = replies.filter((reply) => reply.status === 429)
    expect(limited.length).toBeGreaterThan(0)
    expect(limited[0]!.body).toEqual({
      code: "rate_limited",
      message: "more than 5 requests a second with this key; try again later"
    })
    const retryAfter = Number(limited[0]!.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    // Another key has its own allowance.
    expect((await company(other)).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000))
    expect((await company(key)).status).toBe(200)
  })

  it("limits requests whose key is refused by where they come from, apart from any key's allowance", async () => {
    const key = await freshKey()
    const unknown = "sk_test_00000000000000000000000000000000"
    const replies = await Promise.all(
      Array.from({ length: 300 }, () => app.request("GET", "/api/v2/company", { key: unknown }))
    )
    const statuses = new Set(replies.map((reply) => reply.status))
    expect([...statuses].sort()).toEqual([401, 429])
    // A key the service knows has its own allowance, whatever refused keys came from the same address.
    expect((await app.request("GET", "/api/v2/company", { key })).status).toBe(200)
  })
})
