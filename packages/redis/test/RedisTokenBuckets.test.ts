// Token buckets in a Redis server of the test's own: a burst then refusals with the wait, spends that leave a bucket in
// debt for every client of the same Redis, one bucket for every client of the same Redis, buckets that forget
// themselves once full, and a Redis that is gone or stuck failing each take at once instead of holding it — then
// answering again when it is back.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Schedule } from "effect"
import { Redis } from "ioredis"
import { RedisTokenBuckets } from "../src/index.js"
import { type RedisServer, startRedisServer } from "./support/RedisServer.js"

let server: RedisServer
let bucketCount = 0
/** A bucket name no other test uses. */
const freshBucket = () => `bucket-${++bucketCount}`

beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(() => server.kill())

const clientOf = (options: Partial<RedisTokenBuckets.Options> = {}) =>
  RedisTokenBuckets.make({ url: server.url, keyPrefix: "test:", ...options })

/** Takes until the client is connected (it connects in the background, and again after a loss). */
const connected = (buckets: RedisTokenBuckets.TokenBuckets) =>
  Effect.suspend(() => buckets.take(freshBucket(), { burst: 1, perSecond: 1 })).pipe(
    Effect.retry({ schedule: Schedule.spaced("50 millis"), times: 100 })
  )

const takes = (buckets: RedisTokenBuckets.TokenBuckets, bucket: string, limit: RedisTokenBuckets.Limit, n: number) =>
  Effect.forEach(Array.from({ length: n }), () => buckets.take(bucket, limit))

describe("RedisTokenBuckets", () => {
  it.live("allows a burst, then refuses with the whole seconds until a token is back", () =>
    Effect.gen(function* () {
      const buckets = yield* clientOf()
      yield* connected(buckets)
      const bucket = freshBucket()
      const limit = { burst: 3, perSecond: 0.25 }
      expect(yield* takes(buckets, bucket, limit, 3)).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }])
      expect(yield* buckets.take(bucket, limit)).toEqual({ allowed: false, retryAfterSeconds: 4 })
      expect(yield* buckets.take(freshBucket(), limit)).toEqual({ allowed: true })
    }).pipe(Effect.scoped)
  )

  it.live("refills at its rate, never above its burst", () =>
    Effect.gen(function* () {
      const buckets = yield* clientOf()
      yield* connected(buckets)
      const bucket = freshBucket()
      const limit = { burst: 2, perSecond: 2 }
      yield* takes(buckets, bucket, limit, 2)
      expect((yield* buckets.take(bucket, limit)).allowed).toBe(false)
      yield* Effect.sleep("1100 millis")
      const after = yield* takes(buckets, bucket, limit, 3)
      expect(after.map((decision) => decision.allowed)).toEqual([true, true, false])
    }).pipe(Effect.scoped)
  )

  it.live("is one bucket for every client of the same Redis, and each prefix has its own", () =>
    Effect.gen(function* () {
      const first = yield* clientOf()
      const second = yield* clientOf()
      const otherPrefix = yield* clientOf({ keyPrefix: "other:" })
      yield* Effect.forEach([first, second, otherPrefix], connected)
      const bucket = freshBucket()
      const limit = { burst: 4, perSecond: 0.1 }
      yield* takes(first, bucket, limit, 4)
      expect((yield* second.take(bucket, limit)).allowed).toBe(false)
      expect((yield* otherPrefix.take(bucket, limit)).allowed).toBe(true)
    }).pipe(Effect.scoped)
  )

  it.live("spends past zero: every client's takes wait the debt out, and the wait counts it", () =>
    Effect.gen(function* () {
      const first = yield* clientOf()
      const second = yield* clientOf()
      yield* Effect.forEach([first, second], connected)
      const bucket = freshBucket()
      const limit = { burst: 4, perSecond: 2 }
      expect(yield* first.take(bucket, limit)).toEqual({ allowed: true })
      // 3 left, 23 spent: 20 below zero, 10.5 s before one token is back (a little less by the time it is asked).
      yield* first.spend(bucket, limit, 23)
      const waits = [yield* second.take(bucket, limit), yield* first.take(bucket, limit)]
      for (const decision of waits) {
        expect(decision.allowed).toBe(false)
        expect(decision.allowed ? 0 : decision.retryAfterSeconds).toBeGreaterThanOrEqual(10)
        expect(decision.allowed ? 0 : decision.retryAfterSeconds).toBeLessThanOrEqual(11)
      }
      // A spend never waits for the bucket: it is what an allowed request turned out to cost.
      yield* second.spend(bucket, limit, 4)
      const deeper = yield* first.take(bucket, limit)
      expect(deeper.allowed ? 0 : deeper.retryAfterSeconds).toBeGreaterThanOrEqual(12)
      expect(deeper.allowed ? 0 : deeper.retryAfterSeconds).toBeLessThanOrEqual(13)
      const inspect = new Redis(server.url)
      const ttl = yield* Effect.promise(() => inspect.pttl(`test:${bucket}`))
      yield* Effect.promise(() => inspect.quit())
      // Some 28 tokens short of full at two a second.
      expect(ttl).toBeGreaterThan(12_000)
      expect(ttl).toBeLessThanOrEqual(14_001)
      expect((yield* first.take(freshBucket(), limit)).allowed).toBe(true)
    }).pipe(Effect.scoped)
  )

  it.live("lets a bucket expire once it would be full again", () =>
    Effect.gen(function* () {
      const buckets = yield* clientOf()
      yield* connected(buckets)
      const bucket = freshBucket()
      yield* takes(buckets, bucket, { burst: 10, perSecond: 5 }, 3)
      const inspect = new Redis(server.url)
      const ttl = yield* Effect.promise(() => inspect.pttl(`test:${bucket}`))
      yield* Effect.promise(() => inspect.quit())
      // Three tokens short of full at five a second: 600 ms.
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(601)
    }).pipe(Effect.scoped)
  )

  it.live("fails each take at once while Redis is gone or stuck, and answers again once it is back", () =>
    Effect.gen(function* () {
      const buckets = yield* clientOf({ timeout: "200 millis" })
      yield* connected(buckets)
      const limit = { burst: 5, perSecond: 5 }

      yield* Effect.promise(() => server.kill())
      const whileGone = yield* Effect.exit(buckets.take(freshBucket(), limit))
      expect(Exit.isFailure(whileGone) && JSON.stringify(whileGone.cause)).toContain("RedisUnavailable")

      yield* Effect.promise(() => server.start())
      yield* connected(buckets)
      expect((yield* buckets.take(freshBucket(), limit)).allowed).toBe(true)

      // Stopped, not gone: the connection stays open and nothing answers.
      server.pause()
      const whileStuck = yield* Effect.exit(buckets.take(freshBucket(), limit))
      server.resume()
      expect(Exit.isFailure(whileStuck) && JSON.stringify(whileStuck.cause)).toContain("Command timed out")
      yield* connected(buckets)
      expect((yield* buckets.take(freshBucket(), limit)).allowed).toBe(true)
    }).pipe(Effect.scoped)
  )
})
