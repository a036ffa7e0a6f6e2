// Token buckets kept in Redis, so that every process using the same Redis shares them: each take or spend is one
// atomic round trip (a Lua script, sent by its SHA once Redis knows it), refilled by the Redis server's clock — one
// clock for every machine — and a bucket is forgotten once it would be full again. A call Redis does not answer within
// the timeout fails at once, as does one made while the connection is down: the caller decides what a missing answer
// means.
import { Duration, Effect, Schema, type Scope } from "effect"
import type { Redis } from "ioredis"

export interface Limit {
  /** Takes allowed at once: what a full bucket holds. */
  readonly burst: number
  /** Takes a second the bucket refills with. */
  readonly perSecond: number
}

export type Decision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number }

/** Redis did not answer: not connected, too slow, or an error of its own. */
export class RedisUnavailable extends Schema.TaggedError<RedisUnavailable>()("RedisUnavailable", {
  message: Schema.String
}) {}

export interface Options {
  /** `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. */
  readonly url: string
  /** Put before every bucket's name, so that one Redis can hold several programs' buckets. */
  readonly keyPrefix?: string | undefined
  /** How long a take may wait for Redis before it fails; 100 ms unless given. */
  readonly timeout?: Duration.Input | undefined
}

export interface TokenBuckets {
  /** Takes one from `bucket`, a bucket of `limit`: allowed, or refused with the whole seconds until one is back. */
  readonly take: (bucket: string, limit: Limit) => Effect.Effect<Decision, RedisUnavailable>
  /**
   * Spends `cost` from `bucket` whatever it holds, for what something it let through turned out to cost: the bucket
   * may go below zero, a debt its next takes wait out (and their wait counts it).
   */
  readonly spend: (bucket: string, limit: Limit, cost: number) => Effect.Effect<void, RedisUnavailable>
}

// A hash of the tokens left and when they were counted (ms). A missing bucket is a full one, which is why its time to
// live can be the time it takes to fill up (longer for one in debt). A take (ARGV[4] "take") spends ARGV[3] only when
// the bucket holds that much, a spend always. Answers 0 when allowed, else the seconds until the take would be.
const takeScript = `
local burst = tonumber(ARGV[1])
local per_second = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local state = redis.call("HMGET", KEYS[1], "tokens", "at")
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * per_second)
local allowed = ARGV[4] ~= "take" or tokens >= cost
if allowed then tokens = tokens - cost end
redis.call("HSET", KEYS[1], "tokens", tokens, "at", now)
redis.call("PEXPIRE", KEYS[1], math.ceil((burst - tokens) / per_second * 1000) + 1)
if allowed then return 0 end
return math.max(1, math.ceil((cost - tokens) / per_second))
`

type TakeClient = Redis & {
  readonly takeToken: (
    bucket: string,
    burst: number,
    perSecond: number,
    cost: number,
    kind: "take" | "spend"
  ) => Promise<number>
}

/**
 * Connects, waiting up to a second for Redis to answer before it returns: when Redis is not there yet, the takes fail
 * until it is. It reconnects after every loss, trying every second at most, and disconnects when the scope closes.
 */
export const make = (options: Options): Effect.Effect<TokenBuckets, never, Scope.Scope> =>
  Effect.gen(function* () {
    const keyPrefix = options.keyPrefix ?? ""
    const timeoutMs = Duration.toMillis(Duration.fromInputUnsafe(options.timeout ?? Duration.millis(100)))
    // Loaded here rather than with this module, so that a program that merely links this package (a command line
    // whose other commands never use Redis) does not pay for loading the client.
    const { Redis } = yield* Effect.promise(() => import("ioredis"))
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const redis = new Redis(options.url, {
          // A take must never wait for a connection: while there is none it fails, and the caller decides.
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          commandTimeout: timeoutMs,
          retryStrategy: (attempt) => Math.min(attempt * 100, 1_000)
        })
        // Connection errors also fail the takes they affect, which is where they are reported; unheard, ioredis would
        // print each one to the console.
        redis.on("error", () => {})
        redis.defineCommand("takeToken", { numberOfKeys: 1, lua: takeScript })
        return redis as TakeClient
      }),
      (redis) => Effect.sync(() => redis.disconnect())
    )
    yield* Effect.callback<void>((resume) => {
      if (client.status === "ready") return resume(Effect.void)
      const onReady = () => resume(Effect.void)
      client.once("ready", onReady)
      return Effect.sync(() => client.off("ready", onReady))
    }).pipe(Effect.timeoutOrElse({ duration: "1 second", orElse: () => Effect.void }))
    const run = (bucket: string, limit: Limit, cost: number, kind: "take" | "spend") =>
      Effect.tryPromise({
        try: () => client.takeToken(keyPrefix + bucket, limit.burst, limit.perSecond, cost, kind),
        catch: (cause) => new RedisUnavailable({ message: cause instanceof Error ? cause.message : String(cause) })
      })
    return {
      take: (bucket, limit) =>
        run(bucket, limit, 1, "take").pipe(
          Effect.map(
            (retryAfterSeconds): Decision =>
              retryAfterSeconds === 0 ? { allowed: true } : { allowed: false, retryAfterSeconds }
          )
        ),
      spend: (bucket, limit, cost) => Effect.asVoid(run(bucket, limit, cost, "spend"))
    } satisfies TokenBuckets
  })
