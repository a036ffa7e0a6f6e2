// The rate limits' token buckets: in memory, a bucket per name that allows a burst, refuses with how long to wait and
// refills, and may be spent into a debt that is waited out, however long that takes; over a shared store, this
// process's own buckets while the store fails, said once in the log and then at most once a minute, and the store
// again as soon as it answers.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, type LogLevel } from "effect"
import { TestClock } from "effect/testing"
import * as RateLimiter from "../src/RateLimiter.js"

describe("RateLimiter buckets in memory", () => {
  it("allows a burst, then refuses with how long to wait, then refills", () => {
    const { take } = RateLimiter.makeBuckets()
    const limit = { burst: 3, perSecond: 1 }
    expect([0, 0, 0].map((at) => take("a", limit, at).allowed)).toEqual([true, true, true])
    expect(take("a", limit, 0)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(take("a", limit, 500).allowed).toBe(false)
    expect(take("a", limit, 1_000).allowed).toBe(true)
    expect(take("a", limit, 1_000).allowed).toBe(false)
  })

  it("keeps one bucket per name", () => {
    const { take } = RateLimiter.makeBuckets()
    const limit = { burst: 1, perSecond: 1 }
    expect(take("a", limit, 0).allowed).toBe(true)
    expect(take("a", limit, 0).allowed).toBe(false)
    expect(take("b", limit, 0).allowed).toBe(true)
  })

  it("never holds more than the burst, however long a client was away", () => {
    const { take } = RateLimiter.makeBuckets()
    const limit = { burst: 2, perSecond: 10 }
    take("a", limit, 0)
    const later = 3_600_000
    expect([later, later, later].map((at) => take("a", limit, at).allowed)).toEqual([true, true, false])
  })

  it("remembers a bucket taken from in the last minute while its maps turn over", () => {
    const { take } = RateLimiter.makeBuckets()
    const limit = { burst: 1, perSecond: 0.01 }
    expect(take("a", limit, 0).allowed).toBe(true)
    // Another client's request a minute later starts a new map; the bucket taken at 0 is in the older one.
    take("b", limit, 61_000)
    expect(take("a", limit, 70_000)).toEqual({ allowed: false, retryAfterSeconds: 30 })
  })

  it("says to wait longer when the bucket refills slowly", () => {
    const { take } = RateLimiter.makeBuckets()
    const limit = { burst: 1, perSecond: 0.25 }
    take("a", limit, 0)
    expect(take("a", limit, 0)).toEqual({ allowed: false, retryAfterSeconds: 4 })
  })
})

describe("RateLimiter buckets spent into debt", () => {
  const limit = { burst: 10, perSecond: 2 }

  it("refuses after a spend for exactly as long as the debt takes to refill, and says so", () => {
    const { take, spend } = RateLimiter.makeBuckets()
    expect(take("a", limit, 0).allowed).toBe(true)
    // 9 tokens left; a response worth 29 more leaves the bucket 20 below zero: 10.5 s until one token is back.
    spend("a", limit, 29, 0)
    expect(take("a", limit, 0)).toEqual({ allowed: false, retryAfterSeconds: 11 })
    expect(take("a", limit, 5_000)).toEqual({ allowed: false, retryAfterSeconds: 6 })
    expect(take("a", limit, 10_400).allowed).toBe(false)
    expect(take("a", limit, 10_500).allowed).toBe(true)
    expect(take("a", limit, 10_500)).toEqual({ allowed: false, retryAfterSeconds: 1 })
  })

  it("leaves every other bucket as it was", () => {
    const { take, spend } = RateLimiter.makeBuckets()
    spend("large", limit, 1_000, 0)
    expect(Array.from({ length: 10 }, () => take("small", limit, 0).allowed)).toEqual(Array(10).fill(true))
    expect(take("large", limit, 0)).toEqual({ allowed: false, retryAfterSeconds: 496 })
  })

  it("keeps a debt that outlasts the minutes its maps turn over in, untouched meanwhile", () => {
    const { take, spend } = RateLimiter.makeBuckets()
    // 10 tokens and 990 more: 495.5 s before one is back.
    spend("a", limit, 1_000, 0)
    // Other clients' requests turn the maps over, every minute; nobody asks for "a" for five minutes.
    for (let at = 61_000; at < 300_000; at += 61_000) take("other", limit, at)
    expect(take("a", limit, 300_000)).toEqual({ allowed: false, retryAfterSeconds: 196 })
    for (let at = 361_000; at < 495_000; at += 61_000) take("other", limit, at)
    expect(take("a", limit, 495_000).allowed).toBe(false)
    expect(take("a", limit, 495_500).allowed).toBe(true)
  })
})

describe("RateLimiter over a shared store", () => {
  /** A store that answers `refused` to every take while it is up, and fails while it is down. */
  const makeStore = () => {
    const state = { up: true, calls: 0, spent: 0 }
    const take = () =>
      Effect.suspend(() => {
        state.calls += 1
        return state.up
          ? Effect.succeed<RateLimiter.Decision>({ allowed: false, retryAfterSeconds: 7 })
          : Effect.fail(new Error("connection refused"))
      })
    const spend = (_bucket: string, _limit: RateLimiter.Limit, cost: number) =>
      Effect.suspend(() => {
        state.calls += 1
        if (!state.up) return Effect.fail(new Error("connection refused"))
        state.spent += cost
        return Effect.void
      })
    return { state, take, spend }
  }

  const capture = (lines: Array<{ level: LogLevel.LogLevel; message: string }>) =>
    Logger.layer([
      Logger.make(({ logLevel, message }) => {
        lines.push({ level: logLevel, message: String(Array.isArray(message) ? message[0] : message) })
      })
    ])

  it.effect("asks the store while it answers, and this process's own buckets while it fails", () => {
    const lines: Array<{ level: LogLevel.LogLevel; message: string }> = []
    return Effect.gen(function* () {
      const store = makeStore()
      const limiter = yield* RateLimiter.shared(store)
      const limit = { burst: 2, perSecond: 1 }

      expect(yield* limiter.take("key:1", limit)).toEqual({ allowed: false, retryAfterSeconds: 7 })
      expect(lines).toEqual([])

      store.state.up = false
      const whileDown = yield* Effect.forEach([1, 2, 3], () => limiter.take("key:1", limit))
      expect(whileDown).toEqual([{ allowed: true }, { allowed: true }, { allowed: false, retryAfterSeconds: 1 }])
      expect(lines.map((line) => line.level)).toEqual(["Warn"])
      expect(lines[0]?.message).toContain("does not answer")

      // Still failing a minute later: said again, once.
      yield* TestClock.adjust("30 seconds")
      yield* limiter.take("key:1", limit)
      expect(lines).toHaveLength(1)
      yield* TestClock.adjust("30 seconds")
      yield* limiter.take("key:1", limit)
      yield* limiter.take("key:1", limit)
      expect(lines.map((line) => line.level)).toEqual(["Warn", "Warn"])

      store.state.up = true
      expect(yield* limiter.take("key:1", limit)).toEqual({ allowed: false, retryAfterSeconds: 7 })
      expect(lines.map((line) => line.level)).toEqual(["Warn", "Warn", "Info"])
      expect(lines[2]?.message).toContain("answers again")

      // A new outage is said at once.
      store.state.up = false
      yield* limiter.take("key:1", limit)
      expect(lines.map((line) => line.level)).toEqual(["Warn", "Warn", "Info", "Warn"])
      expect(store.state.calls).toBe(9)
    }).pipe(Effect.provide(capture(lines)))
  })

  it.effect("spends in the store while it answers, and from this process's own buckets while it fails", () => {
    const lines: Array<{ level: LogLevel.LogLevel; message: string }> = []
    return Effect.gen(function* () {
      const store = makeStore()
      const limiter = yield* RateLimiter.shared(store)
      const limit = { burst: 2, perSecond: 1 }

      yield* limiter.spend("key:1", limit, 5)
      expect(store.state.spent).toBe(5)

      store.state.up = false
      yield* limiter.spend("key:1", limit, 5)
      expect(lines.map((line) => line.level)).toEqual(["Warn"])
      // The process's own bucket went 3 below zero: 4 s before a token is back.
      expect(yield* limiter.take("key:1", limit)).toEqual({ allowed: false, retryAfterSeconds: 4 })

      store.state.up = true
      yield* limiter.spend("key:1", limit, 1)
      expect(store.state.spent).toBe(6)
      expect(lines.map((line) => line.level)).toEqual(["Warn", "Info"])
    }).pipe(Effect.provide(capture(lines)))
  })
})
