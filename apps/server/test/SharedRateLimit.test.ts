// SPEC 4.7 and 10 across replicas: three `fatura serve` processes on one Postgres database and one Redis hold a key to
// FATURA_RATE_LIMIT together — after its burst, at most about the limit a second across all three, not the limit each.
// When Redis is gone they keep answering (fail open), each process on its own limit, and each says so in its log; once
// Redis is back they share the limit again. The Redis here is the test's own, which it kills and starts again.
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RedisServer, startRedisServer } from "../../../packages/redis/test/support/RedisServer.js"
import { nextCnpj } from "./support/Cnpj.js"
import { freePort, main, type ServerProcess, startServer } from "./support/ServerProcess.js"
import { postgres } from "./support/TestDatabases.js"

const adminUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"
// Low enough that three servers sharing two busy cores with the rest of the suite still answer well past it: only then
// does the load tell one limit shared by the three from a limit each.
const perSecond = 25
const burst = 2 * perSecond
/** Requests in flight at once, spread over the three servers. */
const concurrency = 12

interface Outcome {
  /** When the answer came, in ms from the start of the load. */
  readonly at: number
  readonly status: number
  readonly server: number
}

/** What a load saw once the key's bucket was empty (from its first 429 on): answers allowed, and over how long. */
const afterTheBurst = (outcomes: ReadonlyArray<Outcome>) => {
  const from = Math.min(...outcomes.filter((outcome) => outcome.status === 429).map((outcome) => outcome.at))
  const to = Math.max(...outcomes.map((outcome) => outcome.at))
  const allowed = outcomes.filter((outcome) => outcome.at >= from && outcome.status === 200).length
  return { allowed, seconds: (to - from) / 1000 }
}

const allowedCount = (outcomes: ReadonlyArray<Outcome>) => outcomes.filter((outcome) => outcome.status === 200).length

describe("the per-key rate limit across three server processes on one Redis", () => {
  let release: (() => Promise<void>) | undefined
  let redis: RedisServer
  let servers: Array<ServerProcess & { readonly baseUrl: string }> = []
  let key: string

  beforeAll(async () => {
    const acquired = await postgres(adminUrl)
      .acquire()
      .catch((error) => {
        throw new Error(`these tests need a Postgres server at ${adminUrl} (set TEST_DATABASE_URL): ${error}`)
      })
    release = acquired.release
    if (acquired.config._tag !== "Postgres") throw new Error("expected a Postgres database")
    const databaseUrl = Redacted.value(acquired.config.url)
    redis = await startRedisServer()

    const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "info" }
    const created = await promisify(execFile)(
      process.execPath,
      [main, "company", "create", "--name", "Loja", "--cnpj", nextCnpj(), "--email", "loja@example.com", "--json"],
      { env }
    )
    key = JSON.parse(created.stdout.trim().split("\n").at(-1)!).secret_key

    servers = await Promise.all(
      [1, 2, 3].map(async () => {
        const port = await freePort()
        const serverEnv = {
          ...env,
          PORT: String(port),
          HOST: "127.0.0.1",
          REDIS_URL: redis.url,
          FATURA_RATE_LIMIT: String(perSecond)
        }
        return { ...(await startServer(serverEnv, ["--workers", "1"])), baseUrl: `http://127.0.0.1:${port}` }
      })
    )
  }, 120_000)

  afterAll(async () => {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise((resolve) => {
            if (server.child.exitCode !== null) return resolve(undefined)
            server.child.once("exit", resolve)
            server.child.kill("SIGTERM")
          })
      )
    )
    await redis?.kill()
    await release?.()
  })

  /** The key's requests from `concurrency` clients at once, round the three servers, for `ms`. */
  const hammer = async (ms: number): Promise<ReadonlyArray<Outcome>> => {
    const outcomes: Array<Outcome> = []
    const started = Date.now()
    let next = 0
    const client = async () => {
      while (Date.now() - started < ms) {
        const server = next++ % servers.length
        const response = await fetch(`${servers[server]!.baseUrl}/api/v2/company`, {
          headers: { authorization: `Bearer ${key}` }
        })
        await response.arrayBuffer()
        outcomes.push({ at: Date.now() - started, status: response.status, server })
      }
    }
    await Promise.all(Array.from({ length: concurrency }, client))
    return outcomes
  }

  /** Waits until every server's log says `text`, sending a request to each now and then to move it along. */
  const untilEveryLog = async (text: string) => {
    const deadline = Date.now() + 30_000
    while (!servers.every((server) => server.output().includes(text))) {
      if (Date.now() > deadline) throw new Error(`not every server logged "${text}"`)
      await Promise.all(
        servers.map((server) =>
          fetch(`${server.baseUrl}/api/v2/company`, { headers: { authorization: `Bearer ${key}` } }).then((response) =>
            response.arrayBuffer()
          )
        )
      )
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  /** At most the burst and the rate over the load, and about the rate once the burst is spent, with some slack. */
  const expectSharedLimit = (outcomes: ReadonlyArray<Outcome>) => {
    const seconds = Math.max(...outcomes.map((outcome) => outcome.at)) / 1000
    expect(allowedCount(outcomes)).toBeLessThanOrEqual(burst + perSecond * 1.1 * seconds + concurrency)
    const steady = afterTheBurst(outcomes)
    expect(steady.seconds).toBeGreaterThan(1)
    // Answers already on their way when the first 429 came may be counted in the window: one per client at most.
    expect(steady.allowed).toBeLessThanOrEqual(perSecond * 1.1 * steady.seconds + concurrency)
    // And the limit is not a wall: the key gets its share.
    expect(steady.allowed).toBeGreaterThan(perSecond * 0.5 * steady.seconds)
    for (const server of [0, 1, 2]) {
      expect(outcomes.filter((outcome) => outcome.server === server && outcome.status === 200).length).toBeGreaterThan(
        0
      )
    }
    expect(outcomes.filter((outcome) => outcome.status !== 200 && outcome.status !== 429)).toEqual([])
  }

  it("lets a key have about its limit a second across the three, not three times it", async () => {
    // Servers just started answer slowly at first; a first load warms them up, and spends the key's burst.
    await hammer(3_000)
    expectSharedLimit(await hammer(4_000))
  }, 60_000)

  it("answers while Redis is gone, each process on its own limit, and shares the limit again once Redis is back", async () => {
    await redis.kill()
    const whileGone = await hammer(3_000)
    // Nothing failed for want of Redis, and more got through than the shared bucket, spent by the test before, would
    // have let through; but no more than the three processes' own buckets hold.
    expect(whileGone.filter((outcome) => outcome.status !== 200 && outcome.status !== 429)).toEqual([])
    const seconds = Math.max(...whileGone.map((outcome) => outcome.at)) / 1000
    expect(allowedCount(whileGone)).toBeGreaterThan(perSecond * 1.1 * seconds + concurrency)
    expect(allowedCount(whileGone)).toBeLessThanOrEqual(3 * (burst + perSecond * 1.1 * seconds) + concurrency)
    for (const server of servers) expect(server.output()).toContain("the shared rate limit store does not answer")

    await redis.start()
    await untilEveryLog("the shared rate limit store answers again")
    expectSharedLimit(await hammer(4_000))
  }, 90_000)
})
