// `fatura serve`: the HTTP server over the configured database, with the demo company on a fresh embedded one, and its
// rate limits in Redis when `REDIS_URL` is set — shared with every other process on that Redis.

import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import {
  AutoWithdrawals,
  CardCharges,
  Companies,
  Expirations,
  IdempotencyFingerprintKey,
  IdempotencyLeaseSeconds,
  PixSettlements,
  Postbacks,
  Receivables,
  Retention,
  WithdrawalSweep
} from "@fatura/application"
import { BankExchange } from "@fatura/cnab240"
import {
  CardVelocity,
  FaturaHttp,
  MetricsAccess,
  NodeServer,
  PixNotificationsHttp,
  RateLimiter,
  RequestLimits
} from "@fatura/http"
import { Database } from "@fatura/persistence"
import * as PixApi from "@fatura/pix-api"
import { RedisTokenBuckets } from "@fatura/redis"
import { Console, type Duration, Effect, Layer, Option, References, Schedule } from "effect"
import * as AdminSocket from "./AdminSocket.js"
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

/**
 * Says once, at start, how to have `/metrics` served when it is not: by the process that serves alone, or by the
 * primary of `serve --workers N`, whose workers share its environment.
 */
export const announceMetrics = (config: ServerConfig) =>
  config.metricsToken === null
    ? Effect.logInfo(
        "GET /metrics is not served: set FATURA_METRICS_TOKEN to a secret of 16 characters or more, and scrape it " +
          "with Authorization: Bearer <that token>"
      )
    : Effect.void

/** How often card charges whose answer was lost are looked for: they are two minutes old before they count as lost. */
const cardChargeInterval = "10 seconds"

/** How often what is past its retention is purged: often enough that each purge finds a batch or a few. */
const retentionInterval = "1 minute"

/** How often receivables whose day has come are made available: they fall due at midnight, São Paulo time. */
const receivablesInterval = "1 minute"

/** How often withdrawals are handed to the rail and its answers asked for: a payout takes seconds. */
const withdrawalsInterval = "1 second"

/** How often pix returns left without an answer are looked for: they are a minute old before they count. */
const pixReturnInterval = "10 seconds"

/**
 * In embedded mode the server is its own worker (SPEC 8.3): it sweeps expired invoices, delivers postbacks, settles
 * card charges whose answer was lost, reconciles pix with the pix provider, settles pix returns left unanswered, makes
 * due receivables available, pays withdrawals (and makes the automatic ones) and purges what is past its retention in the background.
 */
const embeddedWorker = (pixReconcileEvery: Duration.Duration) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const expirations = yield* Expirations
      const postbacks = yield* Postbacks
      const retention = yield* Retention
      const cardCharges = yield* CardCharges
      const pixSettlements = yield* PixSettlements
      const receivables = yield* Receivables
      const withdrawals = yield* WithdrawalSweep
      const autoWithdrawals = yield* AutoWithdrawals
      yield* Effect.forkScoped(expirations.run("5 seconds"))
      yield* Effect.forkScoped(withdrawals.run(withdrawalsInterval))
      yield* Effect.forkScoped(autoWithdrawals.run(receivablesInterval))
      yield* Effect.forkScoped(receivables.run(receivablesInterval))
      yield* Effect.forkScoped(cardCharges.run(cardChargeInterval))
      yield* Effect.forkScoped(postbacks.run(`server-${process.pid}`, "1 second"))
      yield* Effect.forkScoped(retention.run(retentionInterval))
      yield* Effect.forkScoped(pixSettlements.run({ reconcileEvery: pixReconcileEvery, sweepEvery: pixReturnInterval }))
    })
  )

/** With a bank reached by its files, the embedded server exchanges them every `interval` (SPEC 15.3). */
const bankExchanges = (interval: Duration.Duration) =>
  Layer.effectDiscard(Effect.flatMap(BankExchange.BankExchange, (bank) => Effect.forkScoped(bank.run(interval))))

/**
 * With a pix provider that notifies, tells it where: at start, and again until it has taken it, without holding the
 * start back (a PSP down at start delays notifications; the reconciliation pays meanwhile). A PSP that refuses the
 * URL would refuse it again: that is logged as an error, for the operator, and not asked again until the next start.
 */
const registerPixWebhook = (publicBaseUrl: string) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const pixSettlements = yield* PixSettlements
      const url = PixNotificationsHttp.webhookUrl(publicBaseUrl)
      yield* Effect.forkScoped(
        pixSettlements.registerWebhook(url).pipe(
          Effect.tapError((error) =>
            error._tag === "PixProviderUnavailable"
              ? Effect.logWarning("pix webhook not registered yet; trying again", { error })
              : Effect.void
          ),
          Effect.retry({
            schedule: Schedule.spaced("30 seconds"),
            while: (error) => error._tag === "PixProviderUnavailable"
          }),
          Effect.andThen(Effect.logInfo("pix webhook registered", { url })),
          Effect.catchTag("PixProviderRefused", (refused) =>
            Effect.logError(
              "the PSP refused the pix webhook: no notification will come, and pix invoices are paid by the " +
                "reconciliation alone (FATURA_PIX_RECONCILE_DELAY); fix PUBLIC_BASE_URL or the PSP account, then restart",
              { url, reason: refused.reason }
            )
          )
        )
      )
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
          RateLimiter.shared(buckets)
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
  const services = Services.layer(database, {
    ...config,
    migrate: role === "alone",
    pixProvider: Option.getOrUndefined(Option.map(config.pixApi, (settings) => PixApi.layer(settings))),
    bank: Option.getOrUndefined(config.bank)
  })
  // Only this process may open the embedded database: the CLI's commands reach it through the admin socket.
  const embeddedOnly =
    database._tag === "Embedded"
      ? Layer.mergeAll(
          Layer.effectDiscard(printDemoCompany),
          embeddedWorker(config.pixReconcileEvery),
          Option.match(config.bank, {
            onNone: () => Layer.empty,
            onSome: (bank) => bankExchanges(bank.exchangeInterval)
          }),
          database.dataDir === undefined ? Layer.empty : AdminSocket.serve(database.dataDir)
        )
      : Layer.empty
  // Every serving process registers it (`serve --workers N` has no other): the PSP takes the same URL again as it is.
  const pixWebhook = Option.isSome(config.pixApi) ? registerPixWebhook(config.publicBaseUrl) : Layer.empty
  return FaturaHttp.serve().pipe(
    Layer.provide(Layer.succeed(RequestLimits.KeyRateLimit, config.rateLimitPerKey)),
    Layer.provide(Layer.succeed(CardVelocity.CardRateLimit, config.cardRateLimit)),
    Layer.provide(Layer.succeed(PixNotificationsHttp.ProviderCallsPerSecond, config.pixNotificationCallsPerSecond)),
    Layer.provide(Layer.succeed(MetricsAccess.MetricsToken, config.metricsToken)),
    Layer.provide(Layer.succeed(IdempotencyLeaseSeconds, config.idempotencyLeaseSeconds)),
    Layer.provide(Layer.succeed(IdempotencyFingerprintKey, config.idempotencyFingerprintKey)),
    Layer.provide(rateLimiter(config.redisUrl)),
    Layer.provide(
      NodeHttpServer.layer(NodeServer.create, {
        port: config.port,
        host: config.host,
        gracefulShutdownTimeout: shutdownGraceSeconds
      })
    ),
    Layer.provide(embeddedOnly),
    Layer.provide(pixWebhook),
    Layer.provide(services),
    Layer.provide(Layer.succeed(References.TracerEnabled, false)),
    Layer.provide(
      role === "worker" ? Layer.succeed(References.CurrentLogAnnotations, { pid: process.pid }) : Layer.empty
    )
  )
}
