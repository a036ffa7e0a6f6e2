// Two clients of one Redis, as two replicas of a service would be: they spend one bucket's burst between them, and a
// refusal says how long to wait. REDIS_URL says where Redis is (redis://127.0.0.1:6379 unless set).
import { RedisTokenBuckets } from "@fatura/redis"
import { Config, Console, Effect } from "effect"

const describe = (decision: RedisTokenBuckets.Decision) =>
  decision.allowed ? "allowed" : `refused, retry in ${decision.retryAfterSeconds} s`

const program = Effect.gen(function* () {
  const url = yield* Config.String("REDIS_URL").pipe(Config.withDefault("redis://127.0.0.1:6379"))
  const replicaA = yield* RedisTokenBuckets.make({ url, keyPrefix: "example:" })
  const replicaB = yield* RedisTokenBuckets.make({ url, keyPrefix: "example:" })

  // Three at once, then one every two seconds; the bucket is the API key's, whichever replica is asked.
  const limit = { burst: 3, perSecond: 0.5 }
  const bucket = `key-${Date.now()}`
  for (const [name, replica] of [
    ["A", replicaA],
    ["B", replicaB],
    ["A", replicaA],
    ["B", replicaB]
  ] as const) {
    yield* Console.log(`replica ${name}: ${describe(yield* replica.take(bucket, limit))}`)
  }
})

Effect.runPromise(Effect.scoped(program))
