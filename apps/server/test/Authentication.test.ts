// SPEC 2: who may call the protected endpoints, and what everybody else gets; and the key cache (a revoked key or a
// company blocked from the system is refused within 5 s, everything else about the company applies at once).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cardRequest, pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

describe.each(testDatabases)("authentication on $name", (database) => {
  let app: TestApp
  let key: string
  let companyId: number

  beforeAll(async () => {
    // Every request looked up: these are the rules themselves, whatever the cache remembers.
    app = await startApp(database, { keyCacheTtl: 0 })
    const registered = await app.registerCompany()
    key = registered.secretKey
    companyId = registered.company.id
  })
  afterAll(() => app.stop())

  const expectUnauthorized = (reply: Awaited<ReturnType<TestApp["request"]>>) => {
    expect(reply.status).toBe(401)
    expect(reply.headers.get("www-authenticate")).toBe("Bearer")
    expect(reply.body.code).toBe("unauthorized")
    expect(typeof reply.body.message).toBe("string")
  }

  it("accepts the company's secret key", async () => {
    const reply = await app.request("GET", "/api/v2/company", { key })
    expect(reply.status).toBe(200)
    expect(reply.body.id).toBe(companyId)
  })

  it("answers 401 without an Authorization header, on every protected endpoint", async () => {
    expectUnauthorized(await app.request("GET", "/api/v2/company"))
    expectUnauthorized(await app.request("GET", "/api/v2/invoices?id=1"))
    expectUnauthorized(await app.request("POST", "/api/v2/invoices", { body: pixRequest() }))
    expectUnauthorized(await app.request("POST", "/api/v2/exchange-token"))
  })

  it("answers 401 for a malformed key or another scheme", async () => {
    expectUnauthorized(await app.request("GET", "/api/v2/company", { key: "not-a-key" }))
    expectUnauthorized(await app.request("GET", "/api/v2/company", { key: `${key}x` }))
    expectUnauthorized(await app.request("GET", "/api/v2/company", { headers: { authorization: `Basic ${key}` } }))
    expectUnauthorized(await app.request("GET", "/api/v2/company", { headers: { authorization: key } }))
  })

  it("answers 401 for a well-formed key that was never issued", async () => {
    expectUnauthorized(await app.request("GET", "/api/v2/company", { key: "sk_test_00000000000000000000000000000000" }))
    expectUnauthorized(await app.request("GET", "/api/v2/company", { key: `sk_live_${key.slice(8)}` }))
  })

  it("answers 401 for a revoked key, and the company's other keys keep working", async () => {
    const { company } = await app.registerCompany()
    const first = await app.createKey(company.id, "test")
    const second = await app.createKey(company.id, "test")
    expect((await app.request("GET", "/api/v2/company", { key: first.secretKey })).status).toBe(200)
    expect((await app.revokeKey(first.record.prefix)).id).toBe(first.record.id)
    expectUnauthorized(await app.request("GET", "/api/v2/company", { key: first.secretKey }))
    expect((await app.request("GET", "/api/v2/company", { key: second.secretKey })).status).toBe(200)
  })

  it("answers 401 when the public token is used on a protected endpoint", async () => {
    const exchange = await app.request("POST", "/api/v2/exchange-token", { key })
    expect(exchange.status).toBe(200)
    const publicToken: string = exchange.body.public_token
    expect(publicToken).toMatch(/^pk_test_[0-9A-Za-z]{32}$/)
    expectUnauthorized(await app.request("GET", "/api/v2/company", { key: publicToken }))
    expectUnauthorized(await app.request("POST", "/api/v2/invoices", { key: publicToken, body: pixRequest() }))
  })

  it("stores secret keys only as SHA-256 hashes", async () => {
    const rows = await app.query("SELECT prefix, hash, public_token FROM api_keys WHERE kind = 'secret'")
    expect(rows.length).toBeGreaterThan(0)
    const dump = JSON.stringify(rows)
    expect(dump).not.toContain(key)
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))).toString("hex")
    expect(rows.map((row) => row.hash)).toContain(digest)
  })

  it("answers 403 forbidden on every protected endpoint while the company is blocked_system", async () => {
    const registered = await app.registerCompany()
    await app.setBlock(registered.company.id, "system", true)
    const reply = await app.request("GET", "/api/v2/company", { key: registered.secretKey })
    expect(reply.status).toBe(403)
    expect(reply.body.code).toBe("forbidden")
    await app.setBlock(registered.company.id, "system", false)
    expect((await app.request("GET", "/api/v2/company", { key: registered.secretKey })).status).toBe(200)
  })
})

describe.each(testDatabases)("the key cache on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  /** Polls `path` with `key` until it answers `status`; returns how long that took, in ms. */
  const until = async (key: string, status: number) => {
    const started = Date.now()
    while (Date.now() - started < 10_000) {
      if ((await app.request("GET", "/api/v2/company", { key })).status === status) return Date.now() - started
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`no ${status} within 10 s`)
  }

  it("refuses a revoked key within 5 s, answering from the cache until then", async () => {
    const { company } = await app.registerCompany()
    const { secretKey, record } = await app.createKey(company.id, "test")
    expect((await app.request("GET", "/api/v2/company", { key: secretKey })).status).toBe(200)
    expect((await app.revokeKey(record.prefix)).id).toBe(record.id)
    expect((await app.request("GET", "/api/v2/company", { key: secretKey })).status).toBe(200)
    expect(await until(secretKey, 401)).toBeLessThan(5_000)
  })

  it("refuses a company blocked from the system within 5 s, and serves it again within 5 s of the unblock", async () => {
    const registered = await app.registerCompany()
    const key = registered.secretKey
    expect((await app.request("GET", "/api/v2/company", { key })).status).toBe(200)
    await app.setBlock(registered.company.id, "system", true)
    expect(await until(key, 403)).toBeLessThan(5_000)
    await app.setBlock(registered.company.id, "system", false)
    expect(await until(key, 200)).toBeLessThan(5_000)
  })

  it("applies a block of one method and the company's 3-D Secure from the very next request", async () => {
    const registered = await app.registerCompany()
    const key = registered.secretKey
    expect((await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })).status).toBe(201)
    await app.setBlock(registered.company.id, "pix", true)
    const blocked = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })
    expect(blocked.status).toBe(403)
    expect((await app.request("GET", "/api/v2/company", { key })).body.blocked_pix).toBe(true)

    expect((await app.request("POST", "/api/v2/exchange-token", { key })).status).toBe(200)
    const unauthenticated = await app.request("POST", "/api/v2/invoices", { key, body: cardRequest() })
    expect(unauthenticated.body).toMatchObject({ status: "refused", refusedReason: "authentication_required" })
  })

  it("answers Search Transaction with one SQL statement once the key is known", async () => {
    const { secretKey: key } = await app.registerCompany()
    const created = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })
    expect(created.status).toBe(201)
    for (const id of [created.body.secureId, String(created.body.id)]) {
      const statements = await app.statementsDuring(async () => {
        const reply = await app.request("GET", `/api/v2/invoices?id=${id}`, { key })
        expect(reply.status).toBe(200)
        expect(reply.body).toMatchObject({
          secureId: created.body.secureId,
          enterprise: { id: created.body.enterprise.id }
        })
      })
      expect(statements).toHaveLength(1)
      expect(statements[0]).toMatch(/FROM\s+invoices i[\s\S]*JOIN companies[\s\S]*company_balances/)
    }
  })
})
