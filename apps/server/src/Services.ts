// The application wired to its adapters: use cases over the database of the configuration and the sandbox.
import {
  ApiKeys,
  Authentication,
  Companies,
  Expirations,
  InvoiceLifecycle,
  Invoices,
  PublicBaseUrl
} from "@fatura/application"
import { Database } from "@fatura/persistence"
import { SandboxBoletoIssuer, SandboxCardAcquirer, SandboxPixProvider } from "@fatura/sandbox"
import { Layer } from "effect"

export const layer = (database: Database.DatabaseConfig, publicBaseUrl: string) =>
  Layer.mergeAll(
    Authentication.layer,
    Companies.layer,
    ApiKeys.layer,
    Invoices.layer,
    Expirations.layer.pipe(Layer.provideMerge(InvoiceLifecycle.layer))
  ).pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        SandboxPixProvider.layer,
        SandboxBoletoIssuer.layer,
        SandboxCardAcquirer.layer,
        Layer.succeed(PublicBaseUrl, publicBaseUrl)
      )
    ),
    Layer.provideMerge(Database.layer(database))
  )
