// SPEC 11.1: the interactive documentation and the OpenAPI document cost what a cached, compressed site costs — a
// `/docs` load is a small page and two scripts named by their content, sent compressed to a client that takes it
// (3.3 MB of it uncompressed used to be sent on every load), `304` to a client that holds them, and each client
// address within the payer's side's allowance. Requests go from loopback addresses of their own, so that each test
// has its own allowance, on connections of their own, with the bytes counted as they came over the wire.
import { request } from "node:http"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Contract from "./support/Contract.js"
import { inMemory } from "./support/InMemoryServices.js"
import { pixRequest, startApp, type TestApp } from "./support/TestApp.js"

interface Fetched {
  readonly status: number
  readonly headers: ReadonlyMap<string, string>
  /** The bytes of the body as sent, compressed or not. */
  readonly sent: Buffer
  /** The body once decoded. */
  readonly body: Buffer
}

const decode = (encoding: string | undefined, sent: Buffer) =>
  encoding === "br" ? brotliDecompressSync(sent) : encoding === "gzip" ? gunzipSync(sent) : sent

/** A GET from `localAddress`, held to the OpenAPI document once its body is decoded. */
const get = (
  baseUrl: string,
  path: string,
  localAddress: string,
  headers: Record<string, string> = {}
): Promise<Fetched> =>
  new Promise((resolve, reject) => {
    const { port } = new URL(baseUrl)
    const outgoing = request({ host: "127.0.0.1", port, path, localAddress, headers, agent: false }, (incoming) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("error", reject)
      incoming.on("end", () => {
        try {
          const responseHeaders = new Map(
            Object.entries(incoming.headers).map(([name, value]) => [name, String(value)] as const)
          )
          const sent = Buffer.concat(chunks)
          const body = decode(responseHeaders.get("content-encoding"), sent)
          const status = incoming.statusCode ?? 0
          Contract.check({ method: "GET", target: path, status, headers: responseHeaders, body })
          resolve({ status, headers: responseHeaders, sent, body })
        } catch (error) {
          reject(error)
        }
      })
    })
    outgoing.on("error", reject)
    outgoing.end()
  })

/** The scripts a documentation page loads, in order. */
const scriptsOf = (page: Buffer) => [...page.toString().matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]!)

describe.each([inMemory])("the documentation's cost on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  it("sends /docs, its scripts and /openapi.json compressed to a client that takes it, as they are to others", async () => {
    const from = "127.0.6.1"
    const page = await get(app.baseUrl, "/docs", from)
    const scripts = scriptsOf(page.body)
    expect(scripts).toEqual([
      expect.stringMatching(/^\/docs\/scalar\.[0-9a-f]{16}\.js$/),
      expect.stringMatching(/^\/docs\/setup\.[0-9a-f]{16}\.js$/)
    ])
    for (const path of ["/docs", ...scripts, "/openapi.json"]) {
      const plain = await get(app.baseUrl, path, from)
      expect(plain.status, path).toBe(200)
      expect(plain.headers.has("content-encoding"), path).toBe(false)
      expect(plain.headers.get("vary"), path).toBe("accept-encoding")
      for (const [accepted, encoding] of [
        ["br", "br"],
        ["gzip", "gzip"],
        ["gzip, deflate, br", "br"],
        ["br;q=0.5, gzip", "gzip"],
        ["*", "br"],
        ["deflate", undefined],
        ["br;q=0, gzip;q=0", undefined]
      ] as const) {
        const fetched = await get(app.baseUrl, path, from, { "accept-encoding": accepted })
        expect(fetched.headers.get("content-encoding"), `${path} ${accepted}`).toBe(encoding)
        expect(fetched.body.equals(plain.body), `${path} ${accepted}`).toBe(true)
        // The page is a few hundred bytes, which compression hardly shortens; the rest is text of 100 KB and more.
        if (encoding !== undefined && path !== "/docs") expect(fetched.sent.length).toBeLessThan(plain.sent.length / 2)
      }
    }
    expect(JSON.parse((await get(app.baseUrl, "/openapi.json", from)).body.toString())).toMatchObject({
      openapi: expect.stringMatching(/^3\.1/)
    })
  })

  it("answers 304 without a body to an If-None-Match that names the ETag of the encoding it would send", async () => {
    const page = await get(app.baseUrl, "/docs", "127.0.6.2")
    for (const [index, path] of ["/docs", ...scriptsOf(page.body), "/openapi.json"].entries()) {
      // Some twenty requests a path, each path from an address of its own: within the burst of 60 of each.
      const from = `127.0.6.${20 + index}`
      const immutable = path.endsWith(".js")
      for (const encoding of ["br", "gzip", undefined]) {
        const accept: Record<string, string> = encoding === undefined ? {} : { "accept-encoding": encoding }
        const first = await get(app.baseUrl, path, from, accept)
        const etag = first.headers.get("etag")!
        expect(etag, path).toMatch(
          encoding === undefined ? /^"[0-9a-f]{16}"$/ : new RegExp(`^"[0-9a-f]{16}-${encoding}"$`)
        )
        expect(first.headers.get("cache-control"), path).toBe(
          immutable ? "public, max-age=31536000, immutable" : "no-cache"
        )
        for (const ifNoneMatch of [etag, `W/${etag}`, `"someone-else", ${etag}`, "*"]) {
          const again = await get(app.baseUrl, path, from, { ...accept, "if-none-match": ifNoneMatch })
          expect(again.status, `${path} ${ifNoneMatch}`).toBe(304)
          expect(again.sent.length).toBe(0)
          expect(again.headers.get("etag")).toBe(etag)
        }
        expect((await get(app.baseUrl, path, from, { ...accept, "if-none-match": '"changed"' })).status).toBe(200)
      }
      // A copy in another encoding is another representation: sent again.
      const gzipTag = (await get(app.baseUrl, path, from, { "accept-encoding": "gzip" })).headers.get("etag")!
      const asBrotli = await get(app.baseUrl, path, from, { "accept-encoding": "br", "if-none-match": gzipTag })
      expect(asBrotli.status).toBe(200)
    }
    expect((await get(app.baseUrl, "/docs/scalar.0000000000000000.js", "127.0.6.2")).status).toBe(404)
  })

  it("sends a whole /docs load, compressed, in under 1 000 000 bytes", async () => {
    const from = "127.0.6.3"
    for (const accepted of ["gzip, deflate, br", "gzip"]) {
      const page = await get(app.baseUrl, "/docs", from, { "accept-encoding": accepted })
      let bytes = page.sent.length
      for (const script of scriptsOf(page.body)) {
        const fetched = await get(app.baseUrl, script, from, { "accept-encoding": accepted })
        expect(fetched.status).toBe(200)
        bytes += fetched.sent.length
      }
      expect(bytes, accepted).toBeLessThan(1_000_000)
    }
  })

  it("holds each client address to the payer's side's allowance, which it shares with the payer's side", async () => {
    const { secretKey } = await app.registerCompany()
    const invoice = (await app.request("POST", "/api/v2/invoices", { key: secretKey, body: pixRequest() })).body
    const payerPath = `/api/v2/public/invoices/${invoice.secureId}?token=${invoice.invoice.token_checkout}`
    const from = "127.0.6.4"
    const page = await get(app.baseUrl, "/docs", from)
    // Conditional requests, answered 304 within the allowance: small answers, so that the burst arrives at once.
    const documents = await Promise.all(
      ["/docs", "/openapi.json", ...scriptsOf(page.body)].map(async (path) => ({
        path,
        etag: (await get(app.baseUrl, path, from)).headers.get("etag")!
      }))
    )
    // Bursts of 60, then 10 a second, for the documentation and the payer's side together: 240 requests spend it
    // unless they take 18 s to arrive.
    const replies = await Promise.all(
      Array.from({ length: 240 }, (_, index) => {
        if (index % 2 === 1) return get(app.baseUrl, payerPath, from)
        const { path, etag } = documents[(index / 2) % documents.length]!
        return get(app.baseUrl, path, from, { "if-none-match": etag })
      })
    )
    const documentation = replies.filter((_, index) => index % 2 === 0)
    const payer = replies.filter((_, index) => index % 2 === 1)
    expect(documentation.filter((reply) => reply.status === 304).length).toBeGreaterThan(0)
    expect(payer.filter((reply) => reply.status === 200).length).toBeGreaterThan(0)
    for (const side of [documentation, payer]) {
      const limited = side.filter((reply) => reply.status === 429)
      expect(limited.length).toBeGreaterThan(0)
      for (const reply of limited) {
        expect(JSON.parse(reply.body.toString())).toMatchObject({ code: "rate_limited" })
        expect(Number(reply.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
      }
    }
    // Another address is not held back for it.
    expect((await get(app.baseUrl, "/docs", "127.0.6.5")).status).toBe(200)
  })
})
