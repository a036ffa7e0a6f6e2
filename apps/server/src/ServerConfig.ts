// The environment of SPEC 12.1, read once at start.
import { Config, Effect, type LogLevel, Schema } from "effect"

const logLevels = {
  trace: "Trace",
  debug: "Debug",
  info: "Info",
  warn: "Warn",
  error: "Error",
  fatal: "Fatal",
  none: "None"
} as const satisfies Record<string, LogLevel.LogLevel>

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
  return {
    port,
    host,
    databaseUrl,
    dataDir,
    publicBaseUrl,
    allowPrivatePostbacksInTest,
    rateLimitPerKey,
    redisUrl,
    logLevel: logLevels[logLevel]
  }
})

export type ServerConfig = Effect.Success<typeof load>
