// The environment of SPEC 12.1, read once at start.
import { chargeTimeout, leaseDuration, RetentionPeriod, RetentionPeriods } from "@fatura/application"
import { BankSettings } from "@fatura/cnab240"
import * as PixApi from "@fatura/pix-api"
import { Config, Duration, Effect, type LogLevel, Option, Schema } from "effect"

const logLevels = {
  trace: "Trace",
  debug: "Debug",
  info: "Info",
  warn: "Warn",
  error: "Error",
  fatal: "Fatal",
  none: "None"
} as const satisfies Record<string, LogLevel.LogLevel>

const retentionPeriod = (name: string, fallback: Duration.Duration) =>
  Config.schema(RetentionPeriod, name).pipe(Config.withDefault(fallback))

/**
 * The shortest lease FATURA_IDEMPOTENCY_LEASE_SECONDS may set: longer than a request that calls a provider can run —
 * a card charge waits at most `chargeTimeout`; with the API Pix, a call is up to four exchanges with the PSP (a token
 * and the call, both again when the PSP no longer takes the token), each within FATURA_PIX_TIMEOUT_MS — and 10 s
 * more for the request's own statements. 30 s with the sandbox's pix, 50 s with the API Pix's default timeout.
 */
export const shortestIdempotencyLease = (pixApi: Option.Option<PixApi.PixApiSettings>): number => {
  const providers = Math.max(
    Duration.toSeconds(chargeTimeout),
    Option.match(pixApi, {
      onNone: () => 0,
      onSome: (settings) => 4 * Duration.toSeconds(settings.timeout ?? PixApi.defaultTimeout)
    })
  )
  return Math.ceil(providers) + 10
}

export const load = Effect.gen(function* () {
  const port = yield* Config.Port("PORT").pipe(Config.withDefault(3000))
  const host = yield* Config.String("HOST").pipe(Config.withDefault("0.0.0.0"))
  const databaseUrl = yield* Config.String("DATABASE_URL").pipe(Config.withDefault(""))
  const dataDir = yield* Config.String("FATURA_DATA_DIR").pipe(Config.withDefault("./.fatura"))
  const publicBaseUrl = yield* Config.String("PUBLIC_BASE_URL").pipe(Config.withDefault(`http://localhost:${port}`))
  const logLevel = yield* Config.Literals(Object.keys(logLevels) as Array<keyof typeof logLevels>, "LOG_LEVEL").pipe(
    Config.withDefault("info" as const)
  )
  const allowPrivatePostbacksInTest = yield* Config.Boolean("FATURA_POSTBACK_ALLOW_PRIVATE").pipe(
    Config.withDefault(true)
  )
  const rateLimitPerKey = yield* Config.schema(
    Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1))),
    "FATURA_RATE_LIMIT"
  ).pipe(Config.withDefault(100))
  const cardRateLimit = yield* Config.schema(
    Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1))),
    "FATURA_CARD_RATE_LIMIT"
  ).pipe(Config.withDefault(60))
  const redisUrl = yield* Config.schema(
    Schema.String.pipe(
      Schema.check(
        Schema.makeFilter(
          (url: string) => url === "" || /^rediss?:\/\/./.test(url) || "must be a redis:// or rediss:// URL"
        )
      )
    ),
    "REDIS_URL"
  ).pipe(Config.withDefault(""))
  // Unset (or empty): `/metrics` is not served.
  const metricsToken = yield* Config.schema(
    Schema.String.pipe(
      Schema.check(
        Schema.makeFilter(
          (token: string) =>
            token === "" ||
            /^[\x21-\x7E]{16,}$/.test(token) ||
            "must be at least 16 printable ASCII characters without spaces (e.g. openssl rand -hex 32)"
        )
      )
    ),
    "FATURA_METRICS_TOKEN"
  ).pipe(Config.withDefault(""))
  // Unset (or empty): the key the database keeps for the deployment (`IdempotencyFingerprintKey`).
  const idempotencyFingerprintKey = yield* Config.schema(
    Schema.String.pipe(
      Schema.check(
        Schema.makeFilter(
          (key: string) =>
            key === "" ||
            /^[\x21-\x7E]{32,}$/.test(key) ||
            "must be at least 32 printable ASCII characters without spaces (e.g. openssl rand -hex 32)"
        )
      )
    ),
    "FATURA_IDEMPOTENCY_FINGERPRINT_KEY"
  ).pipe(Config.withDefault(""))
  const defaultRetention = RetentionPeriods.defaultValue()
  const retention: RetentionPeriods = {
    idempotency: yield* retentionPeriod("FATURA_IDEMPOTENCY_RETENTION", defaultRetention.idempotency),
    events: yield* retentionPeriod("FATURA_EVENT_RETENTION", defaultRetention.events)
  }
  const pixNotificationCallsPerSecond = yield* Config.schema(
    Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1))),
    "FATURA_PIX_NOTIFICATION_CALLS"
  ).pipe(Config.withDefault(5))
  const pixApi = yield* PixApi.chosen
  const bank = yield* BankSettings.chosen
  const shortestLease = shortestIdempotencyLease(pixApi)
  const idempotencyLeaseSeconds = yield* Config.schema(
    Schema.Int.pipe(
      Schema.check(
        Schema.makeFilter(
          (seconds: number) =>
            seconds >= shortestLease ||
            `must be at least ${shortestLease}: longer than a request that calls a provider can run`
        )
      )
    ),
    "FATURA_IDEMPOTENCY_LEASE_SECONDS"
  ).pipe(Config.withDefault(Duration.toSeconds(Duration.fromInputUnsafe(leaseDuration))))
  return {
    pixApi,
    bank,
    pixReconcileEvery: yield* PixApi.reconcileEvery,
    pixNotificationCallsPerSecond,
    port,
    host,
    databaseUrl,
    dataDir,
    publicBaseUrl,
    allowPrivatePostbacksInTest,
    rateLimitPerKey,
    cardRateLimit,
    redisUrl,
    metricsToken: metricsToken === "" ? null : metricsToken,
    retention,
    idempotencyLeaseSeconds,
    idempotencyFingerprintKey: idempotencyFingerprintKey === "" ? null : idempotencyFingerprintKey,
    logLevel: logLevels[logLevel]
  }
})

export type ServerConfig = Effect.Success<typeof load>
