// A Fatura server for the client's tests, in the test's own process: the HTTP layer of @fatura/http over every use
// case on the in-memory ports (@fatura/application/testing), with the sandbox's providers and the real postback
// sender, on a free loopback port, and the demo company `fatura serve` creates on a new database. Postbacks go out
// every second, as the server's embedded worker sends them. Clients reach it through a proxy that holds every answer
// to the OpenAPI document the server serves. The release's tests start the built `fatura serve` instead
// (release/support/FaturaProcess.ts).
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Companies, Postbacks, PublicBaseUrl } from "@fatura/application"
import { InMemoryPorts, TestApplication } from "@fatura/application/testing"
import { FaturaHttp, NodeServer, RateLimiter } from "@fatura/http"
import { SandboxBoletoIssuer, SandboxCardAcquirer, SandboxPayoutRail, SandboxPixProvider } from "@fatura/sandbox"
import { HttpPostbackSender, NetworkPostbackTargets } from "@fatura/webhooks-http"
import { Effect, Layer, Logger, ManagedRuntime, Option } from "effect"
import { startContractProxy } from "./ContractProxy.js"
import { freePort } from "./FreePort.js"

export interface FaturaServer {
  /** Where clients go: the server behind the contract-checking proxy. */
  readonly url: string
  /** The demo company's test key (`sk_test_…`). */
  readonly secretKey: string
  /** The secret that signs the demo company's test-mode postbacks (`whsec_…`). */
  readonly webhookSecret: string
  /** Every line it logged so far, as JSON. */
  readonly output: () => string
  /** Each answer so far that the served OpenAPI document does not tell, with why. */
  readonly contractProblems: () => ReadonlyArray<string>
  /** Stops it, and its postback deliveries. */
  readonly stop: () => Promise<void>
}

/** The server's use cases over the in-memory ports, with the providers `fatura serve` has in the sandbox. */
const application = TestApplication.useCases.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      SandboxPixProvider.layer,
      SandboxBoletoIssuer.layer,
      SandboxCardAcquirer.layer,
      SandboxPayoutRail.layer,
      HttpPostbackSender.layer,
      NetworkPostbackTargets.layer
    )
  ),
  Layer.provideMerge(InMemoryPorts.layer)
)

/** What the embedded server's worker does that these tests see: postbacks delivered every second. */
const deliveries = Layer.effectDiscard(
  Effect.gen(function* () {
    yield* Effect.forkScoped((yield* Postbacks).run("api-test", "1 second"))
  })
)

/** The HTTP server on `port`, once it listens, with the demo company registered. */
export const startFaturaServer = async (): Promise<FaturaServer> => {
  const port = await freePort()
  let output = ""
  const server = FaturaHttp.serve({ disableListenLog: true }).pipe(
    Layer.provide(Layer.effect(RateLimiter.RateLimiter, RateLimiter.inMemory)),
    Layer.provide(NodeHttpServer.layer(NodeServer.create, { port, host: "127.0.0.1" })),
    Layer.provideMerge(deliveries.pipe(Layer.provideMerge(application))),
    Layer.provide(Layer.succeed(PublicBaseUrl, `http://localhost:${port}`)),
    Layer.provide(
      Logger.layer([
        Logger.map(Logger.formatJson, (line) => {
          output += `${line}\n`
        })
      ])
    )
  )
  const runtime = ManagedRuntime.make(server)
  const demo = await runtime.runPromise(
    Effect.gen(function* () {
      return yield* (yield* Companies).registerDemoIfEmpty
    })
  )
  if (Option.isNone(demo)) {
    await runtime.dispose()
    throw new Error("the new in-memory database already had a company")
  }
  const proxy = await startContractProxy(`http://127.0.0.1:${port}`).catch(async (error) => {
    await runtime.dispose()
    throw error
  })
  return {
    url: proxy.url,
    secretKey: demo.value.secretKey,
    webhookSecret: demo.value.webhookSecret,
    output: () => output,
    contractProblems: proxy.problems,
    stop: async () => {
      await proxy.close()
      await runtime.dispose()
    }
  }
}
