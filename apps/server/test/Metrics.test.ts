// SPEC 11.1: `/metrics` in Prometheus text — requests and latency by route and status (ids folded, unknown paths in
// one series), invoices created by method and status, postback attempts by outcome, database connections — for the
// holder of the server's metrics token only, since they are platform-wide business volumes; none without a token.
import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkedFetch } from "./support/Contract.js"
import { cardRequest, pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

/** The value of one series in a Prometheus text page, 0 when it is not there yet. */
const seriesValue = (page: string, series: string): number => {
  const line = page.split("\n").find((candidate) => candidate.startsWith(`${series} `))
  return line === undefined ? 0 : Number(line.slice(series.length + 1))
}

const metricsToken = "metrics-test-token-0123456789"

describe.each(testDatabases)("metrics on $name", (database) => {
  let app: TestApp
  let key: string
  let receiver: Server
  let receiverUrl: string

  beforeAll(async () => {
    app = await startApp(database, { metricsToken })
    key = (await app.registerCompany()).secretKey
    receiver = createServer((_request, response) => response.writeHead(204).end())
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    const address = receiver.address()
    receiverUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hook`
  })
  afterAll(async () => {
    await app.stop()
    await new Promise((resolve) => receiver.close(resolve))
  })

  const scrape = async () => {
    const response = await checkedFetch(`${app.baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` }
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8")
    return response.text()
  }

  it("counts and times requests by method, route and status, with ids folded and unknown paths together", async () => {
    const before = await scrape()
    const created = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })
    await app.request("GET", `/api/v2/invoices?id=${created.body.secureId}`, { key })
    await app.request("POST", "/api/v2/invoices/refund", { key, body: { id: created.body.secureId } })
    await app.request("GET", `/checkout/${created.body.secureId}?token=wrong`)
    await app.request("GET", `/no/such/${crypto.randomUUID()}`)
    await app.request("GET", "/another/unknown/path")
    const after = await scrape()

    const delta = (series: string) => seriesValue(after, series) - seriesValue(before, series)
    expect(delta('fatura_http_requests_total{method="POST",route="/api/v2/invoices",status="201"}')).toBe(1)
    expect(delta('fatura_http_requests_total{method="GET",route="/api/v2/invoices",status="200"}')).toBe(1)
    expect(delta('fatura_http_requests_total{method="POST",route="/api/v2/invoices/refund",status="409"}')).toBe(1)
    expect(delta('fatura_http_requests_total{method="GET",route="/checkout/:secureId",status="404"}')).toBe(1)
    expect(delta('fatura_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(2)
    expect(
      delta('fatura_http_request_duration_seconds_count{method="POST",route="/api/v2/invoices",status="201"}')
    ).toBe(1)
    expect(
      delta(
        'fatura_http_request_duration_seconds_bucket{method="POST",route="/api/v2/invoices",status="201",le="+Inf"}'
      )
    ).toBe(1)
    expect(after).not.toContain(created.body.secureId)
    expect(after).not.toContain("/no/such")
  })

  it("counts invoices created by method and status, and postback attempts by outcome", async () => {
    const before = await scrape()
    await app.request("POST", "/api/v2/invoices", { key, body: pixRequest({ postback_url: receiverUrl }) })
    await app.request("POST", "/api/v2/invoices", { key, body: cardRequest() })
    await app.request("POST", "/api/v2/invoices", { key, body: cardRequest({ number: "4000 0000 0000 0002" }) })
    await app.deliverPostbacksAt(new Date())
    const after = await scrape()
    const delta = (series: string) => seriesValue(after, series) - seriesValue(before, series)
    expect(delta('fatura_invoices_created_total{method="pix",status="pending"}')).toBe(1)
    expect(delta('fatura_invoices_created_total{method="credit_card",status="paid"}')).toBe(1)
    expect(delta('fatura_invoices_created_total{method="credit_card",status="refused"}')).toBe(1)
    expect(delta('fatura_postback_attempts_total{outcome="succeeded"}')).toBe(1)
  })

  it("answers 401 to anyone without the metrics token, and shows them nothing", async () => {
    const { secretKey } = await app.registerCompany()
    for (const authorization of [
      undefined,
      "Bearer wrong-token-of-some-length",
      `Bearer ${metricsToken.slice(0, -1)}`,
      `Bearer ${metricsToken}x`,
      `Basic ${metricsToken}`,
      `Bearer ${secretKey}`
    ]) {
      const response = await checkedFetch(`${app.baseUrl}/metrics`, {
        headers: authorization === undefined ? {} : { authorization }
      })
      expect(response.status, authorization).toBe(401)
      expect(response.headers.get("www-authenticate")).toBe("Bearer")
      const body = await response.text()
      expect(JSON.parse(body)).toMatchObject({ code: "unauthorized" })
      expect(body).not.toContain("fatura_invoices_created_total")
    }
    // The scheme in any case, as for every credential.
    const lower = await checkedFetch(`${app.baseUrl}/metrics`, { headers: { authorization: `bearer ${metricsToken}` } })
    expect(lower.status).toBe(200)
  })

  it("shows the database connections this process holds", async () => {
    const page = await scrape()
    const max = seriesValue(page, 'fatura_db_connections{state="max"}')
    const open = seriesValue(page, 'fatura_db_connections{state="open"}')
    expect(max).toBe(database.name === "PGlite" ? 1 : 20)
    expect(open).toBeGreaterThanOrEqual(1)
    expect(open).toBeLessThanOrEqual(max)
  })
})

describe.each(testDatabases)("metrics without a metrics token on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  it("are not served: 404 whatever the request carries", async () => {
    const { secretKey } = await app.registerCompany()
    for (const headers of [{}, { authorization: `Bearer ${secretKey}` }, { authorization: `Bearer ${metricsToken}` }]) {
      const response = await checkedFetch(`${app.baseUrl}/metrics`, { headers })
      expect(response.status).toBe(404)
      const body = await response.text()
      expect(JSON.parse(body)).toMatchObject({ code: "not_found" })
      expect(body).not.toContain("fatura_")
    }
  })
})
