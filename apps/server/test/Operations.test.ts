// SPEC 1 and 11.1: request ids, unknown routes, health, readiness, the OpenAPI document and the docs page.
import { ApiDocs } from "@fatura/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { inMemory } from "./support/InMemoryServices.js"
import { startApp, type TestApp } from "./support/TestApp.js"

describe.each([inMemory])("operations on $name", (database) => {
  let app: TestApp
  let key: string

  beforeAll(async () => {
    app = await startApp(database)
    key = (await app.registerCompany()).secretKey
  })
  afterAll(() => app.stop())

  it("echoes a sane X-Request-Id and generates one otherwise, on every response", async () => {
    const echoed = await app.request("GET", "/api/v2/company", { key, headers: { "x-request-id": "req-42.a_b" } })
    expect(echoed.headers.get("x-request-id")).toBe("req-42.a_b")
    const generated = await app.request("GET", "/api/v2/company", { key })
    expect(generated.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]{8,128}$/)
    const insane = await app.request("GET", "/health", { headers: { "x-request-id": "bad id with spaces" } })
    expect(insane.headers.get("x-request-id")).not.toBe("bad id with spaces")
    const tooLong = await app.request("GET", "/health", { headers: { "x-request-id": "a".repeat(129) } })
    expect(tooLong.headers.get("x-request-id")).not.toBe("a".repeat(129))
    const failed = await app.request("GET", "/api/v2/company")
    expect(failed.headers.get("x-request-id")).toBeTruthy()
  })

  it("answers unknown routes with 404 not_found in the error shape", async () => {
    const reply = await app.request("GET", "/api/v2/nothing-here")
    expect(reply.status).toBe(404)
    expect(reply.body).toMatchObject({ code: "not_found" })
    expect(typeof reply.body.message).toBe("string")
    expect(reply.headers.get("x-request-id")).toBeTruthy()
  })

  it("is healthy and ready while the database answers", async () => {
    expect(await app.request("GET", "/health")).toMatchObject({ status: 200, body: { status: "ok" } })
    expect(await app.request("GET", "/ready")).toMatchObject({ status: 200, body: { status: "ok" } })
  })

  it("publishes an OpenAPI 3.1 document of the endpoints with the bearer security scheme", async () => {
    const reply = await app.request("GET", "/openapi.json")
    expect(reply.status).toBe(200)
    const document = reply.body
    expect(document.openapi).toMatch(/^3\.1/)
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/v2/invoices", "/api/v2/company", "/api/v2/exchange-token", "/health", "/ready"])
    )
    expect(document.paths["/api/v2/invoices"].post.responses).toHaveProperty("201")
    expect(document.paths["/api/v2/invoices"].post.responses).toHaveProperty("422")
    expect(document.paths["/api/v2/invoices"].get.responses).toHaveProperty("404")
    const schemes = document.components.securitySchemes
    const bearer = Object.values(schemes as Record<string, { type: string; scheme: string }>).find(
      (scheme) => scheme.type === "http" && scheme.scheme.toLowerCase() === "bearer"
    )
    expect(bearer).toBeDefined()
    expect(document.paths["/api/v2/company"].get.responses).toHaveProperty("401")
  })

  it("serves the document the packages make, naming this server by its public base URL", async () => {
    const reply = await app.request("GET", "/openapi.json")
    expect(reply.body).toEqual(ApiDocs.document("http://fatura.test"))
    expect(reply.body.servers).toEqual([{ url: "http://fatura.test", description: "This server" }])
  })

  it("serves the interactive documentation without third-party requests", async () => {
    const reply = await app.request("GET", "/docs")
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toContain("text/html")
    // Its scripts are this server's, and nothing runs inline.
    const scripts = [...String(reply.body).matchAll(/<script([^>]*)>/g)].map((match) => match[1])
    expect(scripts).toEqual([
      expect.stringMatching(/^ src="\/docs\/scalar\.[0-9a-f]{16}\.js"$/),
      expect.stringMatching(/^ src="\/docs\/setup\.[0-9a-f]{16}\.js"$/)
    ])
    // Nothing but this server may be reached from the page, and its web fonts are not asked for.
    const policy = reply.headers.get("content-security-policy") ?? ""
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("script-src 'self';")
    expect(policy.match(/https?:\/\/[^\s;]+/g) ?? []).toEqual(["http://fatura.test"])
    const setup = await app.request("GET", /src="(\/docs\/setup\.[0-9a-f]+\.js)"/.exec(String(reply.body))![1]!)
    expect(setup.status).toBe(200)
    expect(setup.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    const text = String(setup.body)
    const configuration = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf(")")))
    expect(configuration).toMatchObject({ withDefaultFonts: false, content: ApiDocs.document("http://fatura.test") })
    // The code samples send a bearer placeholder of each credential the document declares, and the scheme is the
    // one documentation tools match: `Bearer` made them send `Authorization: Basic username:password`.
    const schemes = configuration.content.components.securitySchemes
    expect(Object.keys(configuration.authentication.securitySchemes).sort()).toEqual(Object.keys(schemes).sort())
    for (const scheme of Object.values(schemes)) expect(scheme).toMatchObject({ type: "http", scheme: "bearer" })
  })

  it("answers 415 to a POST whose body is not declared as JSON", async () => {
    const body = JSON.stringify({ method: "pix" })
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded"]) {
      const reply = await app.request("POST", "/api/v2/invoices", {
        key,
        rawBody: body,
        headers: { "content-type": contentType }
      })
      expect(reply.status).toBe(415)
      expect(reply.body.code).toBe("unsupported_media_type")
      // Without a body too: the answer is the contract's JSON, not the framework's plain text.
      const empty = await app.request("POST", "/api/v2/sandbox/invoices/expire", {
        key,
        rawBody: "",
        headers: { "content-type": contentType }
      })
      expect(empty.status).toBe(415)
      expect(empty.body.code).toBe("unsupported_media_type")
    }
    const withCharset = await app.request("POST", "/api/v2/invoices", {
      key,
      rawBody: body,
      headers: { "content-type": "application/json; charset=utf-8" }
    })
    expect(withCharset.status).toBe(400)
  })

  it("says which required field is missing", async () => {
    const reply = await app.request("GET", "/api/v2/invoices", { key })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ code: "invalid_request", issues: [{ path: "id", message: "is required" }] })
    expect(reply.body.message).toBe("id: is required")
  })

  it("never leaks internals in an error body", async () => {
    const reply = await app.request("POST", "/api/v2/invoices", { key, rawBody: '{"method": "pix", "payer": ' })
    expect(reply.status).toBe(400)
    expect(JSON.stringify(reply.body)).not.toMatch(/stack|at .*\.js|SELECT|node_modules/)
  })
})
