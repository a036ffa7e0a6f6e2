// Where the rate limits' token buckets live (SPEC 4.7, 10): in this process's memory unless a store every process
// shares is given (`shared`). While that store does not answer, requests are not refused for it: this process's own
// buckets stand in — each process then holds a client to the whole limit — and the log says so.
//
// A bucket is taken from before a request runs, one token, and may be spent from after it, by what the request turned
// out to cost (`spend`): that can leave it below zero, a debt the client's next requests wait out, and the wait a
// refusal names counts the debt too.
import { Clock, Context, Effect } from "effect"

export interface Limit {
  /** Requests allowed at once. */
  readonly burst: number
  /** Requests a second the bucket refills with. */
  readonly perSecond: number
}

export type Decision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number }

/** The payer's side, per client address. */
export const publicLimit: Limit = { burst: 60, perSecond: 10 }

export class RateLimiter extends Context.Service<
  RateLimiter,
  {
    /** Takes one request from `bucket`, a bucket of `limit`, or says how long to wait. */
    readonly take: (bucket: string, limit: Limit) => Effect.Effect<Decision>
    /**
     * Spends `cost` more from `bucket` for a request it let through, whatever the bucket holds: it may go below zero,
     * and its next takes are refused until it has refilled past one.
     */
    readonly spend: (bucket: string, limit: Limit, cost: number) => Effect.Effect<void>
  }
>()("@fatura/http/RateLimiter") {}

/**
 * Buckets untouched this long are forgotten with the map that holds them. Those that would not be full again by
 * then — a debt, or a slow refill — are kept apart until they would be (`lasting`), so forgetting one changes nothing.
 */
const idleMs = 60_000

interface Bucket {
  tokens: number
  updatedAt: number
  /** When it would be full again, if nobody took from it. */
  fullAt: number
}

export interface Buckets {
  readonly take: (name: string, limit: Limit, nowMs: number) => Decision
  readonly spend: (name: string, limit: Limit, cost: number, nowMs: number) => void
}

/**
 * Token buckets in two maps, this minute's and the last one's: a bucket taken from moves to this minute's, and every
 * minute the older map is dropped whole with the buckets nobody took from since — no sweep over all of them. A
 * bucket that would still not be full when its map is dropped is kept in a third map as well, which is swept each
 * minute: it holds only the buckets in debt or refilling slowly.
 */
export const makeBuckets = (): Buckets => {
  let current = new Map<string, Bucket>()
  let previous = new Map<string, Bucket>()
  const lasting = new Map<string, Bucket>()
  let currentSince = Number.NEGATIVE_INFINITY

  /** `name`'s bucket, refilled to `nowMs`. */
  const refilled = (name: string, limit: Limit, nowMs: number) => {
    if (nowMs - currentSince >= idleMs) {
      previous = current
      current = new Map()
      currentSince = nowMs
      for (const [lastingName, bucket] of lasting) if (bucket.fullAt <= nowMs) lasting.delete(lastingName)
    }
    let bucket = current.get(name)
    if (bucket === undefined) {
      bucket = previous.get(name) ?? lasting.get(name) ?? { tokens: limit.burst, updatedAt: nowMs, fullAt: nowMs }
      current.set(name, bucket)
    }
    const elapsedMs = Math.max(0, nowMs - bucket.updatedAt)
    bucket.tokens = Math.min(limit.burst, bucket.tokens + (elapsedMs / 1000) * limit.perSecond)
    bucket.updatedAt = nowMs
    return bucket
  }

  const spent = (name: string, bucket: Bucket, limit: Limit, cost: number, nowMs: number) => {
    bucket.tokens -= cost
    bucket.fullAt = nowMs + ((limit.burst - bucket.tokens) / limit.perSecond) * 1000
    // Kept in this minute's map, it is remembered at least `idleMs` from now.
    if (bucket.fullAt - nowMs > idleMs) lasting.set(name, bucket)
    else lasting.delete(name)
  }

  return {
    take: (name, limit, nowMs) => {
      const bucket = refilled(name, limit, nowMs)
      if (bucket.tokens >= 1) {
        spent(name, bucket, limit, 1, nowMs)
        return { allowed: true }
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond)) }
    },
    spend: (name, limit, cost, nowMs) => spent(name, refilled(name, limit, nowMs), limit, cost, nowMs)
  }
}

/** This process's own buckets. */
export const inMemory: Effect.Effect<RateLimiter["Service"]> = Effect.sync(() => {
  const buckets = makeBuckets()
  return RateLimiter.of({
    take: (bucket, limit) =>
      Effect.clockWith((clock) => Effect.sync(() => buckets.take(bucket, limit, clock.currentTimeMillisUnsafe()))),
    spend: (bucket, limit, cost) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => buckets.spend(bucket, limit, cost, clock.currentTimeMillisUnsafe()))
      )
  })
})

/** A store of buckets that several processes share, such as `@fatura/redis`'s `RedisTokenBuckets`. */
export interface SharedStore<E> {
  readonly take: (bucket: string, limit: Limit) => Effect.Effect<Decision, E>
  readonly spend: (bucket: string, limit: Limit, cost: number) => Effect.Effect<void, E>
}

/** How often, at most, a store that keeps failing is logged again. */
const warnEveryMs = 60_000

/**
 * Buckets in `store`, shared by every process that uses it. A take or a spend the store fails is made on this
 * process's own buckets instead, logged as a warning on the first failure and then at most once a minute while
 * failures go on; the first answer after them is logged too.
 */
export const shared = <E>(store: SharedStore<E>): Effect.Effect<RateLimiter["Service"]> =>
  Effect.gen(function* () {
    const local = yield* inMemory
    let failing = false
    let warnedAt = Number.NEGATIVE_INFINITY

    const failed = (error: E) =>
      Effect.gen(function* () {
        const nowMs = yield* Clock.currentTimeMillis
        const warn = !failing || nowMs - warnedAt >= warnEveryMs
        failing = true
        if (!warn) return
        warnedAt = nowMs
        yield* Effect.logWarning(
          "the shared rate limit store does not answer: this process limits requests on its own until it does"
        ).pipe(Effect.annotateLogs({ error: error instanceof Error ? error.message : String(error) }))
      })
    const answered = Effect.suspend(() => {
      if (!failing) return Effect.void
      failing = false
      return Effect.logInfo("the shared rate limit store answers again: requests are limited across processes")
    })
    /** `inStore`, or `locally` when the store fails. */
    const orLocally = <A>(inStore: Effect.Effect<A, E>, locally: Effect.Effect<A>) =>
      inStore.pipe(
        Effect.tap(() => answered),
        Effect.catch((error) => Effect.andThen(failed(error), locally))
      )

    return RateLimiter.of({
      take: (bucket, limit) => orLocally(store.take(bucket, limit), local.take(bucket, limit)),
      spend: (bucket, limit, cost) => orLocally(store.spend(bucket, limit, cost), local.spend(bucket, limit, cost))
    })
  })
