// Fatura's HTTP API served by Node: the routes and their edge from @fatura/http, the use cases of
// @fatura/application over an in-memory embedded database (@fatura/persistence) and the sandbox adapters; postbacks
// go out through @fatura/webhooks-http.
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import {
  Authentication,
  BalanceStatement,
  CardCharges,
  CardTokens,
  Companies,
  InvoiceLifecycle,
  Invoices,
  PixSettlements,
  Postbacks,
  PublicBaseUrl,
  Receivables,
  WebhookEndpoints,
  Withdrawals
} from "@fatura/application"
import { FaturaHttp, NodeServer } from "@fatura/http"
import { Database } from "@fatura/persistence"
import { SandboxBoletoIssuer, SandboxCardAcquirer, SandboxPayoutRail, SandboxPixProvider } from "@fatura/sandbox"
import { HttpPostbackSender, NetworkPostbackTargets } from "@fatura/webhooks-http"
import { Config, Console, Effect, Layer } from "effect"

const app = Effect.gen(function* () {
  const port = yield* Config.Port("PORT").pipe(Config.withDefault(3000))

  const useCases = Layer.mergeAll(
    Authentication.layer,
    Companies.layer,
    Invoices.layer.pipe(Layer.provideMerge(CardCharges.layer)),
    InvoiceLifecycle.layer.pipe(Layer.provideMerge(PixSettlements.layer)),
    Postbacks.layer,
    WebhookEndpoints.layer,
    BalanceStatement.layer,
    Receivables.layer,
    Withdrawals.layer,
    CardTokens.layer
  ).pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        SandboxPixProvider.layer,
        SandboxBoletoIssuer.layer,
        SandboxCardAcquirer.layer,
        SandboxPayoutRail.layer,
        HttpPostbackSender.layer,
        NetworkPostbackTargets.layer,
        Layer.succeed(PublicBaseUrl, `http://localhost:${port}`)
      )
    ),
    // No data directory: the database lives in memory, and is gone when the server stops.
    Layer.provideMerge(Database.layer({ _tag: "Embedded", dataDir: undefined }))
  )

  // A company to call the API as, registered before the first request is served.
  const company = Layer.effectDiscard(
    Effect.gen(function* () {
      const { company, secretKey } = yield* (yield* Companies).register({
        cnpj: "11444777000161",
        name: "Padaria São João",
        email: "oi@padaria.example"
      })
      yield* Console.log(`company ${company.id}, test key ${secretKey}`)
    })
  )

  return FaturaHttp.serve().pipe(
    Layer.provide(NodeHttpServer.layer(NodeServer.create, { port })),
    Layer.provide(company),
    Layer.provide(useCases)
  )
})

Layer.unwrap(app).pipe(Layer.launch, NodeRuntime.runMain)
