// SPEC 11.1 in a real browser: the interactive documentation at /docs renders the contract's operations from this
// server alone. Every request the page makes to another host is recorded and refused, as on a machine without
// outside access; the page must render all the same, and must not have tried. Every answer the page gets from this
// server is held to the OpenAPI document, like the answers the other suites get.
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Contract from "../test/support/Contract.js"
import { startApp, type TestApp } from "../test/support/TestApp.js"
import { testDatabases } from "../test/support/TestDatabases.js"
import * as Chromium from "./Chromium.js"

const artifacts = fileURLToPath(new URL("../../../test-results/browser/", import.meta.url))

describe("the interactive documentation in Chromium", () => {
  let app: TestApp
  let browser: Browser

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    browser = await Chromium.launch()
    app = await startApp(testDatabases[0]!)
  })
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  it("renders the operations offline and asks no other host for anything", async () => {
    const context = await browser.newContext()
    const elsewhere: Array<string> = []
    const problems: Array<string> = []
    const origin = new URL(app.baseUrl).origin
    // Every request leaves through here: this server's are checked against the contract, the rest are refused.
    await context.route("**/*", async (route) => {
      const request = route.request()
      const url = new URL(request.url())
      if (url.protocol === "data:" || url.protocol === "blob:") return route.continue()
      if (url.origin !== origin) {
        elsewhere.push(`${request.method()} ${request.url()}`)
        return route.abort("blockedbyclient")
      }
      const response = await route.fetch()
      const body = await response.body()
      try {
        Contract.check({
          method: request.method(),
          target: `${url.pathname}${url.search}`,
          status: response.status(),
          headers: new Map(Object.entries(response.headers())),
          body
        })
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error))
      }
      return route.fulfill({ response, body })
    })
    const page = await context.newPage()
    page.on("pageerror", (error) => problems.push(`script error: ${error.message}`))
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`)
    })

    const response = await page.goto(`${app.baseUrl}/docs`, { waitUntil: "networkidle" })
    expect(response?.status()).toBe(200)
    await page.screenshot({ path: `${artifacts}docs.png` })
    // Operations of each group, by the summaries the contract gives them.
    for (const summary of ["Create Invoices", "Search Transaction", "Public invoice", "Retry a delivery now"]) {
      // Rendering the whole contract takes a loaded machine a while: room, not a race.
      await page.getByText(summary, { exact: true }).first().waitFor({ state: "visible", timeout: 60_000 })
    }
    // The curl sample of each operation sends the credential the operation takes, as a bearer token: copied, with the
    // placeholder replaced, it is answered (they used to send `Authorization: Basic username:password`).
    const curlSamples = async () =>
      (await page.locator("pre, code").allTextContents()).filter((text) => text.startsWith("curl "))
    // The samples are rendered after the operations' summaries, each as its section comes in: wait for them too.
    await expect.poll(async () => (await curlSamples()).length, { timeout: 60_000 }).toBeGreaterThan(20)
    const samples = await curlSamples()
    const sampleOf = (method: string, path: string) => {
      const found = samples.find(
        (sample) =>
          // Samples call the server the document names (`PUBLIC_BASE_URL`).
          sample.split(/[\s?']/).filter(Boolean)[1] === `http://fatura.test${path}` &&
          (method === "GET" ? !sample.includes("--request") : sample.includes(`--request ${method}`))
      )
      if (found === undefined) throw new Error(`no sample of ${method} ${path} among:\n${samples.join("\n")}`)
      return found
    }
    const authorizations = (sample: string) => sample.match(/Authorization: [^'\n]*/g) ?? []
    expect(samples.length).toBeGreaterThan(20)
    expect(samples.filter((sample) => /Authorization: Basic/i.test(sample))).toEqual([])
    expect(authorizations(sampleOf("POST", "/api/v2/invoices"))).toEqual(["Authorization: Bearer YOUR_SECRET_KEY"])
    expect(authorizations(sampleOf("GET", "/api/v2/company"))).toEqual(["Authorization: Bearer YOUR_SECRET_KEY"])
    expect(authorizations(sampleOf("POST", "/api/v2/public/cards"))).toEqual([
      "Authorization: Bearer YOUR_PUBLIC_TOKEN"
    ])
    expect(authorizations(sampleOf("GET", "/metrics"))).toEqual(["Authorization: Bearer YOUR_METRICS_TOKEN"])
    // The payer's routes take the checkout token in the query, and no header.
    expect(authorizations(sampleOf("GET", "/api/v2/public/invoices/5f0c8a52-8a3e-4c4e-9d0b-1f2e3a4b5c6d"))).toEqual([])
    await context.close()

    expect(elsewhere).toEqual([])
    expect(problems).toEqual([])
  }, 180_000)
})
