// The server's use cases over the application's in-memory ports (@fatura/application/testing) instead of a database,
// with the providers `Services.layer` gives them: for the tests whose subject is the HTTP layer — what a request is
// answered, refused or rendered — and not what is stored, which need no SQL and no database to start.
import { AllowPrivatePostbacksInTest, PublicBaseUrl } from "@fatura/application"
import { InMemoryPorts, TestApplication } from "@fatura/application/testing"
import { SandboxBoletoIssuer, SandboxCardAcquirer, SandboxPayoutRail, SandboxPixProvider } from "@fatura/sandbox"
import { HttpPostbackSender, NetworkPostbackTargets } from "@fatura/webhooks-http"
import { Layer } from "effect"
import type * as Services from "../../src/Services.js"

/** What `startApp` runs on instead of a test database. */
export const inMemory = { name: "in-memory" } as const
export type InMemory = typeof inMemory

export const layer = (settings: Services.Settings) =>
  TestApplication.useCases.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        settings.pixProvider ?? SandboxPixProvider.layer,
        SandboxBoletoIssuer.layer,
        settings.cardAcquirer ?? SandboxCardAcquirer.layer,
        SandboxPayoutRail.layer,
        HttpPostbackSender.layer,
        settings.postbackTargets ?? NetworkPostbackTargets.layer,
        Layer.succeed(PublicBaseUrl, settings.publicBaseUrl),
        Layer.succeed(AllowPrivatePostbacksInTest, settings.allowPrivatePostbacksInTest)
      )
    ),
    Layer.provideMerge(InMemoryPorts.layer)
  )
