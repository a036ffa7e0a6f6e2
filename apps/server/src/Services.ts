// The application wired to its adapters: use cases over the database of the configuration and the sandbox.
import { ApiKeys, Authentication, Companies, Invoices } from "@fatura/application"
import { Database } from "@fatura/persistence"
import { SandboxPixProvider } from "@fatura/sandbox"
import { Layer } from "effect"

export const layer = (database: Database.DatabaseConfig) =>
  Layer.mergeAll(Authentication.layer, Companies.layer, ApiKeys.layer, Invoices.layer).pipe(
    Layer.provideMerge(SandboxPixProvider.layer),
    Layer.provideMerge(Database.layer(database))
  )
