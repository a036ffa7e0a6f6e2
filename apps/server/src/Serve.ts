// `fatura serve`: the HTTP server over the configured database, with the demo company on a fresh embedded one, and its
// rate limits in Redis when `REDIS_URL` is set — shared with every other process on that Redis.

import { NodeHttpServer } from "@effect/platform-node"
import { CardCharges, Companies, Expirations, Postbacks, Retention } from "@fatura/application"
import { FaturaHttp, NodeServer, RateLimiter, RequestLimits } from "@fatura/http"
import { Database } from "@fatura/persistence"
import { RedisTokenBuckets } from "@fatura/redis"
import { Console, Effect, Layer, Option, References } from "effect"
import type { ServerConfig } from "./ServerConfig.js"
import * as Services from "./Services.js"

const printDemoCompany = Effect.gen(function* () {
  const companies = yield* Companies
  const demo = yield* companies.registerDemoIfEmpty
  if (Option.isNone(demo)) return
  yield* Console.log(
    [
      "",
      "  A demo company was created on this new database:",
      `    company id           ${demo.value.company.id} (${demo.value.company.fantasyName})`,
      `    test key             ${demo.value.secretKey}`,
      `    test webhook secret  ${demo.value.webhookSecret}`,
      "  Shown once: keep the key to call the API (Authorization: Bearer <key>) and the secret to verify postbacks.",
      ""
    ].join("\n")
  )
})

/** How often card charges whose answer was lost are looked for: they are two minutes old before they count as lost. */
const cardChargeInterval = "10 seconds"

/** How often what is past its retention is purged: often enough that each purge finds a batch or a few. */
const retentionInterval = "1 minute"

/**
 * In embedded mode the server is its own worker (SPEC 8.3): it sweeps expired invoices, delivers postbacks, settles
 * card charges whose answer was lost and purges what is past its retention in the background.
 */
const embeddedWorker = Layer.effectDiscard(
  Effect.gen(function* () {
    const expirations = yield* Expirations
    const postbacks = yield* Postbacks
    const retention = yield* Retention
    const cardCharges = yield* CardCharges
    yield* Effect.forkScoped(expirations.run("5 seconds"))
    yield* Effect.forkScoped(cardCharges.run(cardChargeInterval))
    yield* Effect.forkScoped(postbacks.run(`server-${process.pid}`, "1 second"))
    yield* Effect.forkScoped(retention.run(retentionInterval))
  })
)

/** Where the rate limits' buckets live in Redis, so that the same Redis may hold other programs' keys. */
const redisKeyPrefix = "fatura:rate-limit:"

/** This process's own buckets without Redis; with it, buckets every process shares (`RateLimiter.shared`). */
const rateLimiter = (redisUrl: string) =>
  redisUrl === ""
    ? Layer.effect(RateLimiter.RateLimiter, RateLimiter.inMemory)
    : Layer.effect(
        RateLimiter.RateLimiter,
        Effect.flatMap(RedisTokenBuckets.make({ url: redisUrl, keyPrefix: redisKeyPrefix }), (buckets) =>
          RateLimiter.shared(buckets.take)
        )
      )

/**
 * How this process serves: `alone`, or as one of the workers of `fatura serve --workers N`, whose primary has already
 * migrated the database and whose log lines say which process wrote them.
 */
export type Role = "alone" | "worker"

/** How long a stop waits for the requests in flight to finish (SPEC 11.2). */
const shutdownGraceSeconds = "25 seconds"

export const layer = (config: ServerConfig, role: Role = "alone") => {
  const database = Database.configFrom(config.databaseUrl, config.dataDir)
  const services = Services.layer(database, { ...config, migrate: role === "alone" })
  const embedded = database._tag === "Embedded"
  const embeddedOnly = embedded ? Layer.merge(Layer.effectDiscard(printDemoCompany), embeddedWorker) : Layer.empty
  return FaturaHttp.serve().pipe(
    Layer.provide(Layer.succeed(RequestLimits.KeyRateLimit, config.rateLimitPerKey)),
    Layer.provide(rateLimiter(config.redisUrl)),
    Layer.provide(
      NodeHttpServer.layer(NodeServer.create, {
        port: config.port,
        host: config.host,
        gracefulShutdownTimeout: shutdownGraceSeconds
      })
    ),
    Layer.provide(embeddedOnly),
    Layer.provide(services),
    Layer.provide(Layer.succeed(References.TracerEnabled, false)),
    Layer.provide(
      role === "worker" ? Layer.succeed(References.CurrentLogAnnotations, { pid: process.pid }) : Layer.empty
    )
  )
}
