// SPEC 4.7 against card testing: the public token is in every checkout page, so its tokenizations are counted per token
// — whatever address they come from — and a refused card counts five times an accepted one. A company has one public
// token a mode: the count is its company's in that mode, and another company's, or the same company's other mode,
// is not touched. Each address has a fifth of the token's count, so that no one address refusing cards can spend it
// for every payer. The same in this process's memory and in a Redis every process shares.
import { TestCardAcquirer } from "@fatura/application/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RedisServer, startRedisServer } from "../../../packages/redis/test/support/RedisServer.js"
import { inMemory } from "./support/InMemoryServices.js"
import { freshLoopback, type RawReply, send } from "./support/RawHttp.js"
import { startApp, type TestApp, testCard } from "./support/TestApp.js"

/** Tokenizations a minute per public token in these tests: a burst of 6, then one every 10 s. */
const perMinute = 6

// Where the counts live matters, not the database: the use cases run on the in-memory ports.
const variants = [
  { database: inMemory, redis: false, name: `${inMemory.name}, counted in memory` },
  { database: inMemory, redis: true, name: `${inMemory.name}, counted in Redis` }
]

describe.each(variants)("card tokenizations per public token on $name", ({ database, redis }) => {
  let app: TestApp
  let redisServer: RedisServer | undefined
  let port: number

  beforeAll(async () => {
    // Room for a busy machine: a redis-server to start.
    redisServer = redis ? await startRedisServer() : undefined
    app = await startApp(database, {
      cardRateLimit: perMinute,
      redisUrl: redisServer?.url,
      // Mode-blind, so that a live token tokenizes too.
      cardAcquirer: TestCardAcquirer.layer
    })
    port = Number(new URL(app.baseUrl).port)
  }, 120_000)
  afterAll(async () => {
    await app?.stop()
    await redisServer?.kill()
  })

  const publicTokenOf = async (secretKey: string): Promise<string> =>
    (await app.request("POST", "/api/v2/exchange-token", { key: secretKey })).body.public_token

  const tokenize = (publicToken: string, card: Record<string, unknown>, localAddress = freshLoopback()) =>
    send(port, {
      method: "POST",
      target: "/api/v2/public/cards",
      headers: [
        ["authorization", `Bearer ${publicToken}`],
        ["content-type", "application/json"]
      ],
      body: JSON.stringify(card),
      localAddress
    })

  const statuses = (replies: ReadonlyArray<RawReply>) => replies.map((reply) => reply.status)

  /** The most a bucket of `perMinute` lets through in `ms`: its burst and what it refilled meanwhile. */
  const mostIn = (ms: number) => Math.floor(perMinute + (perMinute / 60) * (ms / 1000))

  it("lets one public token tokenize its burst across many addresses, then 429 whichever address asks", async () => {
    const { secretKey } = await app.registerCompany()
    const publicToken = await publicTokenOf(secretKey)
    const started = Date.now()
    const replies = await Promise.all(
      Array.from({ length: 15 }, () => tokenize(publicToken, testCard, freshLoopback()))
    )
    const elapsed = Date.now() - started
    const accepted = replies.filter((reply) => reply.status === 201).length
    expect(accepted, JSON.stringify(statuses(replies))).toBeGreaterThanOrEqual(perMinute)
    expect(accepted, JSON.stringify(statuses(replies))).toBeLessThanOrEqual(mostIn(elapsed))
    const limited = replies.filter((reply) => reply.status === 429)
    expect(limited.length + accepted).toBe(15)
    for (const reply of limited) {
      expect(reply.body).toEqual({
        code: "rate_limited",
        message: `more than ${perMinute} cards a minute tokenized with this public token; try again later`
      })
      const retryAfter = Number(reply.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(10)
    }

    // Another company's token has its own count.
    const other = await app.registerCompany()
    expect((await tokenize(await publicTokenOf(other.secretKey), testCard)).status).toBe(201)
  })

  it("counts a refused card as five accepted ones", async () => {
    const { secretKey } = await app.registerCompany()
    const publicToken = await publicTokenOf(secretKey)
    // Numbers that fail their check digit, refused by the checks: 5 each of the burst of 6, leaving the token 4 in
    // debt, which takes 50 s to refill to a card's worth — where two accepted cards would have left 4 cards.
    for (const number of ["4111 1111 1111 1112", "5555 5555 5555 4440"]) {
      expect((await tokenize(publicToken, { ...testCard, number })).status).toBe(400)
    }
    const after = await tokenize(publicToken, testCard)
    expect(after.status).toBe(429)
    const retryAfter = Number(after.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThan(40)
    expect(retryAfter).toBeLessThanOrEqual(50)
  })

  it("keeps one address refusing cards to its share: the token's count is left for every other payer", async () => {
    const { secretKey } = await app.registerCompany()
    const publicToken = await publicTokenOf(secretKey)
    const tester = freshLoopback()
    // The first refused card spends 5 of the token's 6 and puts the address's share (6 / 5) deep in debt; the rest
    // are refused at the share, before they touch the token's count.
    const tries = []
    for (let attempt = 0; attempt < 10; attempt++) {
      tries.push(await tokenize(publicToken, { ...testCard, number: "4111 1111 1111 1112" }, tester))
    }
    expect(statuses(tries)).toEqual([400, ...Array(9).fill(429)])
    expect(tries[1]?.body).toEqual({
      code: "rate_limited",
      message: `more cards tokenized with this public token from this address than its share of ${perMinute} a minute; try again later`
    })
    // A payer elsewhere still gets a card through.
    expect((await tokenize(publicToken, testCard, freshLoopback())).status).toBe(201)
  })

  it("counts a company's test and live tokens apart: a test integration spends nothing of the live checkout", async () => {
    const { company, secretKey } = await app.registerCompany()
    const testToken = await publicTokenOf(secretKey)
    const liveToken = await publicTokenOf((await app.createKey(company.id, "live")).secretKey)
    expect(liveToken).toMatch(/^pk_live_/)
    const testReplies = await Promise.all(Array.from({ length: perMinute + 2 }, () => tokenize(testToken, testCard)))
    expect(statuses(testReplies)).toContain(429)
    const liveReplies = await Promise.all(Array.from({ length: perMinute }, () => tokenize(liveToken, testCard)))
    expect(statuses(liveReplies)).toEqual(Array(perMinute).fill(201))
  })
})
