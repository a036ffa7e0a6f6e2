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
import { BankExchange, type BankSettings, BankTransport, Cnab240BoletoIssuer, Cnab240PayoutRail } from "@fatura/cnab240"
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
  /**
   * A bank reached by CNAB 240 files (`FATURA_BANK=cnab240`): it issues and registers the boletos, pays the
   * withdrawals, and its files are exchanged by `BankExchange`. The sandbox's stand-ins without one.
   */
  readonly bank?: BankSettings.BankSettings | undefined
  /** How the bank's files travel: its SFTP server unless given, which only tests do. */
  readonly bankTransport?: Layer.Layer<BankTransport.BankTransport> | undefined
}

/** What a bank by its files adds: its exchange, over its SFTP server (the transport a test may give instead). */
const bankExchange = (settings: Settings) =>
  settings.bank === undefined
    ? BoletoRegistrations.layer
    : BankExchange.layer(settings.bank.agreement).pipe(
        Layer.provide(settings.bankTransport ?? BankTransport.sftpLayer(settings.bank.sftp)),
        Layer.provideMerge(BoletoRegistrations.layer)
      )

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
    bankExchange(settings),
    CardTokens.layer
  ).pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        settings.pixProvider ?? SandboxPixProvider.layer,
        settings.bank === undefined ? SandboxBoletoIssuer.layer : Cnab240BoletoIssuer.layer(settings.bank.agreement),
        settings.cardAcquirer ?? SandboxCardAcquirer.layer,
        settings.bank === undefined ? SandboxPayoutRail.layer : Cnab240PayoutRail.layer(settings.bank.agreement),
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
