// The environment of SPEC 12.1, read once at start.
import { RetentionPeriod, RetentionPeriods } from "@fatura/application"
import * as PixApi from "@fatura/pix-api"
import { Config, type Duration, Effect, type LogLevel, Schema } from "effect"

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
  const defaultRetention = RetentionPeriods.defaultValue()
  const retention: RetentionPeriods = {
    idempotency: yield* retentionPeriod("FATURA_IDEMPOTENCY_RETENTION", defaultRetention.idempotency),
    events: yield* retentionPeriod("FATURA_EVENT_RETENTION", defaultRetention.events)
  }
  return {
    pixApi: yield* PixApi.chosen,
    pixReconcileEvery: yield* PixApi.reconcileEvery,
    port,
    host,
    databaseUrl,
    dataDir,
    publicBaseUrl,
    allowPrivatePostbacksInTest,
    rateLimitPerKey,
    redisUrl,
    retention,
    logLevel: logLevels[logLevel]
  }
})

export type ServerConfig = Effect.Success<typeof load>
