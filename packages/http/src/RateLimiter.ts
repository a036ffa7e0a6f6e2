// Where the rate limits' token buckets live (SPEC 4.7, 10): in this process's memory unless a store every process
// shares is given (`shared`). While that store does not answer, requests are not refused for it: this process's own
// buckets stand in — each process then holds a client to the whole limit — and the log says so.
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
  }
>()("@fatura/http/RateLimiter") {}

/** Buckets untouched this long are full again (for every limit the edge uses), so forgetting them changes nothing. */
const idleMs = 60_000

interface Bucket {
  tokens: number
  updatedAt: number
}

/**
 * Token buckets in two maps, this minute's and the last one's: a bucket taken from moves to this minute's, and every
 * minute the older map is dropped whole with the buckets nobody took from since — no sweep over all of them.
 */
export const makeBuckets = () => {
  let current = new Map<string, Bucket>()
  let previous = new Map<string, Bucket>()
  let currentSince = Number.NEGATIVE_INFINITY

  return (name: string, limit: Limit, nowMs: number): Decision => {
    if (nowMs - currentSince >= idleMs) {
      previous = current
      current = new Map()
      currentSince = nowMs
    }
    let bucket = current.get(name)
    if (bucket === undefined) {
      bucket = previous.get(name) ?? { tokens: limit.burst, updatedAt: nowMs }
      current.set(name, bucket)
    }
    const elapsedMs = Math.max(0, nowMs - bucket.updatedAt)
    bucket.tokens = Math.min(limit.burst, bucket.tokens + (elapsedMs / 1000) * limit.perSecond)
    bucket.updatedAt = nowMs
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { allowed: true }
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond)) }
  }
}

/** This process's own buckets. */
export const inMemory: Effect.Effect<RateLimiter["Service"]> = Effect.sync(() => {
  const take = makeBuckets()
  return RateLimiter.of({
    take: (bucket, limit) =>
      Effect.clockWith((clock) => Effect.sync(() => take(bucket, limit, clock.currentTimeMillisUnsafe())))
  })
})

/** How often, at most, a store that keeps failing is logged again. */
const warnEveryMs = 60_000

/**
 * Buckets in `store`, shared by every process that uses it. A take the store fails is decided by this process's own
 * buckets instead, logged as a warning on the first failure and then at most once a minute while failures go on; the
 * first answer after them is logged too.
 */
export const shared = <E>(
  store: (bucket: string, limit: Limit) => Effect.Effect<Decision, E>
): Effect.Effect<RateLimiter["Service"]> =>
  Effect.gen(function* () {
    const local = yield* inMemory
    let failing = false
    let warnedAt = Number.NEGATIVE_INFINITY

    const fallBack = (bucket: string, limit: Limit, error: E) =>
      Effect.gen(function* () {
        const nowMs = yield* Clock.currentTimeMillis
        const warn = !failing || nowMs - warnedAt >= warnEveryMs
        failing = true
        if (warn) {
          warnedAt = nowMs
          yield* Effect.logWarning(
            "the shared rate limit store does not answer: this process limits requests on its own until it does"
          ).pipe(Effect.annotateLogs({ error: error instanceof Error ? error.message : String(error) }))
        }
        return yield* local.take(bucket, limit)
      })

    return RateLimiter.of({
      take: (bucket, limit) =>
        store(bucket, limit).pipe(
          Effect.tap(() => {
            if (!failing) return Effect.void
            failing = false
            return Effect.logInfo("the shared rate limit store answers again: requests are limited across processes")
          }),
          Effect.catch((error) => fallBack(bucket, limit, error))
        )
    })
  })
