// The application wired to its adapters: use cases over the database of the configuration and the sandbox.
import {
  AllowPrivatePostbacksInTest,
  ApiKeys,
  Authentication,
  AutoWithdrawals,
  BalanceStatement,
  BoletoRegistrations,
  type CardAcquirer,
  CardCharges,
  CardTokens,
  Companies,
  Expirations,
  InvoiceLifecycle,
  Invoices,
  type PixProvider,
  PixSettlements,
  Postbacks,
  type PostbackTargets,
  PublicBaseUrl,
  Receivables,
  Retention,
  RetentionPeriods,
  WebhookEndpoints,
  WithdrawalSweep,
  Withdrawals
} from "@fatura/application"
import { Database } from "@fatura/persistence"
import { SandboxBoletoIssuer, SandboxCardAcquirer, SandboxPayoutRail, SandboxPixProvider } from "@fatura/sandbox"
import { HttpPostbackSender, NetworkPostbackTargets } from "@fatura/webhooks-http"
import { Layer } from "effect"

/** Why a configured pix provider could not be built: a setting it cannot use, said in its own words. */
export interface PixProviderUnusable {
  readonly message: string
}

export interface Settings {
  readonly publicBaseUrl: string
  readonly allowPrivatePostbacksInTest: boolean
  /** Where postbacks may go (SPEC 8.4): the network check unless given, which only tests do. */
  readonly postbackTargets?: Layer.Layer<PostbackTargets> | undefined
  /** The card acquirer: the sandbox's unless given, which only tests do. */
  readonly cardAcquirer?: Layer.Layer<CardAcquirer> | undefined
  /**
   * The pix provider: the sandbox's unless given (`FATURA_PIX_PROVIDER=bcb`, or a test); one that cannot be built
   * (its PEM files) fails the start with its error.
   */
  readonly pixProvider?: Layer.Layer<PixProvider, PixProviderUnusable> | undefined
  /** Whether to migrate the database first: unless another process (the primary of `serve --workers`) already has. */
  readonly migrate?: boolean | undefined
  /** How long stored idempotent responses and events are kept: the application's defaults unless given. */
  readonly retention?: RetentionPeriods | undefined
}

export const layer = (database: Database.DatabaseConfig, settings: Settings) =>
  Layer.mergeAll(
    Authentication.layer,
    Companies.layer,
    ApiKeys.layer,
    Invoices.layer.pipe(Layer.provideMerge(CardCharges.layer)),
    Expirations.layer.pipe(Layer.provideMerge(InvoiceLifecycle.layer), Layer.provideMerge(PixSettlements.layer)),
    Postbacks.layer,
    WebhookEndpoints.layer,
    BalanceStatement.layer,
    Receivables.layer,
    AutoWithdrawals.layer.pipe(Layer.provideMerge(Withdrawals.layer)),
    WithdrawalSweep.layer,
    Retention.layer,
    BoletoRegistrations.layer,
    CardTokens.layer
  ).pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        settings.pixProvider ?? SandboxPixProvider.layer,
        SandboxBoletoIssuer.layer,
        settings.cardAcquirer ?? SandboxCardAcquirer.layer,
        SandboxPayoutRail.layer,
        HttpPostbackSender.layer,
        settings.postbackTargets ?? NetworkPostbackTargets.layer,
        Layer.succeed(PublicBaseUrl, settings.publicBaseUrl),
        Layer.succeed(AllowPrivatePostbacksInTest, settings.allowPrivatePostbacksInTest),
        settings.retention === undefined ? Layer.empty : Layer.succeed(RetentionPeriods, settings.retention)
      )
    ),
    Layer.provideMerge(
      settings.migrate === false
        ? Database.repositories(database).pipe(Layer.provideMerge(Database.client(database)))
        : Database.layer(database)
    )
  )
