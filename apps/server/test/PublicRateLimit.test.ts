// SPEC 4.7 and 10: the public endpoints are rate-limited per client address, by the route the router matched; the
// protected ones are not.
import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { inMemory } from "./support/InMemoryServices.js"
import { send } from "./support/RawHttp.js"
import { pixRequest, startApp, type TestApp } from "./support/TestApp.js"

describe.each([inMemory])("public rate limits on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  it("answers 429 with Retry-After once an address has spent its burst", async () => {
    const { secretKey } = await app.registerCompany()
    const invoice = (await app.request("POST", "/api/v2/invoices", { key: secretKey, body: pixRequest() })).body
    const path = `/api/v2/public/invoices/${invoice.secureId}?token=${invoice.invoice.token_checkout}`
    const replies = await Promise.all(Array.from({ length: 300 }, () => app.request("GET", path)))
    const limited = replies.filter((reply) => reply.status === 429)
    expect(replies.filter((reply) => reply.status === 200).length).toBeGreaterThanOrEqual(60)
    expect(limited.length).toBeGreaterThan(0)
    for (const reply of limited) {
      expect(reply.body.code).toBe("rate_limited")
      expect(Number(reply.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    }
    const protectedReply = await app.request("GET", `/api/v2/invoices?id=${invoice.secureId}`, { key: secretKey })
    expect(protectedReply.status).toBe(200)
  })

  it("limits a pix provider's notifications per client address: each makes Fatura ask the provider", async () => {
    const port = Number(new URL(app.baseUrl).port)
    // From an address of its own, since the other tests spend the burst of 127.0.0.1; and not through the contract's
    // check, since a PSP's callback is no operation of the merchants' OpenAPI document.
    const notify = () =>
      new Promise<number>((resolve, reject) => {
        const outgoing = request(
          { host: "127.0.0.1", port, localAddress: "127.0.4.9", method: "POST", path: "/pix-api/webhook/pix" },
          (incoming) => {
            incoming.resume()
            incoming.on("end", () => resolve(incoming.statusCode ?? 0))
          }
        )
        outgoing.on("error", reject)
        outgoing.setHeader("content-type", "application/json")
        outgoing.end(JSON.stringify({ pix: [] }))
      })
    const statuses = await Promise.all(Array.from({ length: 300 }, notify))
    expect(statuses.filter((status) => status === 204).length).toBeGreaterThanOrEqual(60)
    expect(statuses).toContain(429)
  })

  it("counts every spelling of a payer's route against one address, and serves no other spelling", async () => {
    const { secretKey } = await app.registerCompany()
    const invoice = (await app.request("POST", "/api/v2/invoices", { key: secretKey, body: pixRequest() })).body
    const port = Number(new URL(app.baseUrl).port)
    const query = `?token=${invoice.invoice.token_checkout}`
    const from = (target: string) => send(port, { method: "GET", target, headers: [], localAddress: "127.0.3.7" })
    for (const spelling of [
      `/API/v2/public/invoices/${invoice.secureId}${query}`,
      `//api/v2/public/invoices/${invoice.secureId}${query}`,
      `/api/v2/public/invoices/${invoice.secureId}/${query}`,
      `//checkout/${invoice.secureId}${query}`,
      `/Checkout/${invoice.secureId}${query}`
    ]) {
      expect((await from(spelling)).status, spelling).toBe(404)
    }
    // The absolute form is the same route: its requests spend the same allowance as the canonical ones. 300 of them
    // outrun the refill (10 a second past a burst of 60) however slowly a loaded machine answers them, down to 12 a
    // second.
    const absolute = `http://127.0.0.1:${port}/api/v2/public/invoices/${invoice.secureId}${query}`
    const replies = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        from(index % 2 === 0 ? absolute : `/checkout/${invoice.secureId}${query}`)
      )
    )
    expect(replies.filter((reply) => reply.status === 429).length).toBeGreaterThan(0)
  })
})
