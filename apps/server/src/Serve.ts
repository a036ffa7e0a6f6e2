// `fatura serve`: the HTTP server over the configured database, with the demo company on a fresh embedded one.

import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { Companies } from "@fatura/application"
import { FaturaHttp } from "@fatura/http"
import { Database } from "@fatura/persistence"
import { Console, Effect, Layer, Option } from "effect"
import { HttpRouter } from "effect/http"
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
      `    company id  ${demo.value.company.id} (${demo.value.company.fantasyName})`,
      `    test key    ${demo.value.secretKey}`,
      "  Shown once: keep the key to call the API (Authorization: Bearer <key>).",
      ""
    ].join("\n")
  )
})

export const layer = (config: ServerConfig) => {
  const database = Database.configFrom(config.databaseUrl, config.dataDir)
  const services = Services.layer(database, config.publicBaseUrl)
  const demo = database._tag === "Embedded" ? Layer.effectDiscard(printDemoCompany) : Layer.empty
  return HttpRouter.serve(FaturaHttp.routes, { disableLogger: true }).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port: config.port, host: config.host })),
    Layer.provide(demo),
    Layer.provide(services)
  )
}
