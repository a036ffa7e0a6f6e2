// SPEC 10 against noisy neighbours: a key's rate limit counts what its requests make the server produce, one request
// for every 16 KiB of response body. A key that reads a page of large invoices is refused afterwards for as long as
// that page costs, with a Retry-After that says so, and gets through once it has waited; ordinary responses cost one
// request each as before; another company's key is not touched. The same in this process's memory and in a Redis every
// process shares.
import { Invoices } from "@fatura/application"
import { Document } from "@fatura/domain"
import { Effect, Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RedisServer, startRedisServer } from "../../../packages/redis/test/support/RedisServer.js"
import { inMemory } from "./support/InMemoryServices.js"
import { startApp, type TestApp } from "./support/TestApp.js"

/** Requests a second per key in these tests, in bursts of twice that. */
const perSecond = 10
const burst = 2 * perSecond
const bytesPerRequest = 16 * 1024

/** The most metadata an invoice may carry: 50 keys of 255 characters, each with 500 characters. */
const largeMetadata = Object.fromEntries(
  Array.from({ length: 50 }, (_, index) => [String(index).padStart(255, "k"), "v".repeat(500)])
)

// Where the counts live matters, not the database: the use cases run on the in-memory ports.
const variants = [
  { database: inMemory, redis: false, name: `${inMemory.name}, counted in memory` },
  { database: inMemory, redis: true, name: `${inMemory.name}, counted in Redis` }
]

describe.each(variants)("what a key's responses cost on $name", ({ database, redis }) => {
  let app: TestApp
  let redisServer: RedisServer | undefined

  beforeAll(async () => {
    // Room for a busy machine: a redis-server to start.
    redisServer = redis ? await startRedisServer() : undefined
    app = await startApp(database, { rateLimitPerKey: perSecond, redisUrl: redisServer?.url })
  }, 120_000)
  afterAll(async () => {
    await app?.stop()
    await redisServer?.kill()
  })

  /** A company with `count` pix invoices of the largest metadata, made through the use case: no key's requests. */
  const companyWithLargeInvoices = async (count: number) => {
    const registered = await app.registerCompany()
    await app.run(
      Effect.gen(function* () {
        const invoices = yield* Invoices
        const principal = { keyId: 0, mode: "test" as const, companyId: registered.company.id }
        for (let index = 0; index < count; index++) {
          yield* invoices.create(principal, {
            method: "pix",
            totalPriceCents: 10_000,
            items: null,
            tangible: false,
            payer: {
              name: "Maria Souza",
              document: Result.getOrThrow(Document.parse("52998224725")),
              email: "maria@example.com",
              phone: null,
              address: { zip: null, line: null, number: null, complement: null, city: null, state: null }
            },
            ip: null,
            postbackUrl: null,
            externalRef: null,
            metadata: largeMetadata,
            expiresIn: null,
            dueDate: null,
            card: null
          })
        }
      })
    )
    return registered
  }

  it("refuses a key after a large page for as long as the page cost, says so, and lets it through after", async () => {
    const { secretKey } = await companyWithLargeInvoices(25)
    const started = Date.now()
    const page = await app.request("GET", "/api/v2/invoices/list?limit=100", { key: secretKey })
    expect(page.status).toBe(200)
    expect(page.body.data).toHaveLength(25)
    const bytes = Number(page.headers.get("content-length"))
    // Some 950 KB: 58 requests' worth, from a bucket of 20.
    expect(bytes).toBeGreaterThan(40 * bytesPerRequest)
    const left = burst - bytes / bytesPerRequest

    const next = await app.request("GET", "/api/v2/company", { key: secretKey })
    const elapsedSeconds = (Date.now() - started) / 1000
    expect(next.status).toBe(429)
    expect(next.body.code).toBe("rate_limited")
    // The wait a full bucket would leave after that page, less what refilled while the requests ran.
    const owed = (1 - left) / perSecond
    const retryAfter = Number(next.headers.get("retry-after"))
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(owed))
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(owed - elapsedSeconds))
    expect((await app.request("GET", "/api/v2/invoices/list?limit=1", { key: secretKey })).status).toBe(429)

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000))
    expect((await app.request("GET", "/api/v2/company", { key: secretKey })).status).toBe(200)
  }, 90_000)

  it("leaves another key alone while a key is in debt: its ordinary pages go through up to its burst", async () => {
    const large = await companyWithLargeInvoices(25)
    const small = await app.registerCompany()
    await app.request("POST", "/api/v2/invoices", {
      key: small.secretKey,
      body: {
        method: "pix",
        total_price_cents: 1_000,
        payer: { name: "Ana", cpf_cnpj: "52998224725", email: "a@b.co" }
      }
    })
    expect((await app.request("GET", "/api/v2/invoices/list?limit=100", { key: large.secretKey })).status).toBe(200)
    expect((await app.request("GET", "/api/v2/company", { key: large.secretKey })).status).toBe(429)
    // The small key's own page, a few KB, costs one: its whole burst (less the invoice it made) goes through.
    const replies = await Promise.all(
      Array.from({ length: burst - 1 }, () =>
        app.request("GET", "/api/v2/invoices/list?limit=100", { key: small.secretKey })
      )
    )
    expect(replies.map((reply) => reply.status)).toEqual(Array(burst - 1).fill(200))
  }, 90_000)
})
