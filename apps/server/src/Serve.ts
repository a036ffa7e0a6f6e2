// `fatura serve`: the HTTP server over the configured database, with the demo company on a fresh embedded one.

import { NodeHttpServer } from "@effect/platform-node"
import { Companies, Expirations, Postbacks, Retention } from "@fatura/application"
import { FaturaHttp, NodeServer, RequestLimits } from "@fatura/http"
import { Database } from "@fatura/persistence"
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

/** How often what is past its retention is purged: often enough that each purge finds a batch or a few. */
const retentionInterval = "1 minute"

/**
 * In embedded mode the server is its own worker (SPEC 8.3): it sweeps expired invoices, delivers postbacks and purges
 * what is past its retention in the background.
 */
const embeddedWorker = Layer.effectDiscard(
  Effect.gen(function* () {
    const expirations = yield* Expirations
    const postbacks = yield* Postbacks
    const retention = yield* Retention
    yield* Effect.forkScoped(expirations.run("5 seconds"))
    yield* Effect.forkScoped(postbacks.run(`server-${process.pid}`, "1 second"))
    yield* Effect.forkScoped(retention.run(retentionInterval))
  })
)

/** How long a stop waits for the requests in flight to finish (SPEC 11.2). */
const shutdownGraceSeconds = "25 seconds"

export const layer = (config: ServerConfig) => {
  const database = Database.configFrom(config.databaseUrl, config.dataDir)
  const services = Services.layer(database, config)
  const embedded = database._tag === "Embedded"
  const embeddedOnly = embedded ? Layer.merge(Layer.effectDiscard(printDemoCompany), embeddedWorker) : Layer.empty
  return FaturaHttp.serve().pipe(
    Layer.provide(Layer.succeed(RequestLimits.KeyRateLimit, config.rateLimitPerKey)),
    Layer.provide(
      NodeHttpServer.layer(NodeServer.create, {
        port: config.port,
        host: config.host,
        gracefulShutdownTimeout: shutdownGraceSeconds
      })
    ),
    Layer.provide(embeddedOnly),
    Layer.provide(services),
    Layer.provide(Layer.succeed(References.TracerEnabled, false))
  )
}
