#!/usr/bin/env node
import { hostname } from "node:os"
// Entry point of `fatura-worker` (SPEC 8.3, 12.2): the background work of the service against Postgres —
// postback deliveries, expiry sweeps, due receivables, withdrawals, card charges whose answer was lost, the reconciliation of pix with the pix
// provider and its returns left unanswered, the exchange of files with a bank (FATURA_BANK=cnab240), and the purge of
// what is past its retention. Any number of workers may
// run at once: each round locks what it takes and skips what another worker holds (two workers settling the same lost
// charge both ask the acquirer, and the second finds it settled), and a delivery whose worker died is taken up after
// its lease.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import {
  AllowPrivatePostbacksInTest,
  AutoWithdrawals,
  BoletoRegistrations,
  CardCharges,
  Expirations,
  InvoiceLifecycle,
  PixSettlements,
  PostbackLeaseSeconds,
  Postbacks,
  Receivables,
  Retention,
  RetentionPeriod,
  RetentionPeriods,
  WithdrawalSweep,
  Withdrawals
} from "@fatura/application"
import { BankExchange, BankSettings, BankTransport, Cnab240PayoutRail } from "@fatura/cnab240"
import { Database } from "@fatura/persistence"
import * as PixApi from "@fatura/pix-api"
import { SandboxCardAcquirer, SandboxPayoutRail, SandboxPixProvider } from "@fatura/sandbox"
import { HttpPostbackSender, NetworkPostbackTargets } from "@fatura/webhooks-http"
import { Cause, Config, type Duration, Effect, Exit, Layer, Logger, Option, References, Runtime } from "effect"

const retentionPeriod = (name: string, fallback: Duration.Duration) =>
  Config.schema(RetentionPeriod, name).pipe(Config.withDefault(fallback))

const program = Effect.gen(function* () {
  const databaseUrl = yield* Config.String("DATABASE_URL").pipe(Config.withDefault(""))
  if (databaseUrl === "") {
    return yield* Effect.fail(
      new Error("fatura-worker needs DATABASE_URL (in embedded mode the server does this work itself)")
    )
  }
  const allowPrivate = yield* Config.Boolean("FATURA_POSTBACK_ALLOW_PRIVATE").pipe(Config.withDefault(true))
  const pollInterval = yield* Config.Duration("FATURA_WORKER_POLL_INTERVAL").pipe(Config.withDefault("1 second"))
  const leaseSeconds = yield* Config.Int("FATURA_POSTBACK_LEASE_SECONDS").pipe(Config.withDefault(60))
  const defaultRetention = RetentionPeriods.defaultValue()
  const retention: RetentionPeriods = {
    idempotency: yield* retentionPeriod("FATURA_IDEMPOTENCY_RETENTION", defaultRetention.idempotency),
    events: yield* retentionPeriod("FATURA_EVENT_RETENTION", defaultRetention.events)
  }
  const pixApi = yield* PixApi.chosen
  const pixReconcileEvery = yield* PixApi.reconcileEvery
  const bank = yield* BankSettings.chosen
  const worker = `${hostname()}-${process.pid}`
  const services = Layer.mergeAll(
    Expirations.layer.pipe(Layer.provide(InvoiceLifecycle.layer)),
    Postbacks.layer,
    Retention.layer,
    CardCharges.layer,
    Receivables.layer,
    WithdrawalSweep.layer,
    AutoWithdrawals.layer.pipe(Layer.provideMerge(Withdrawals.layer)),
    Option.match(bank, {
      onNone: () => Layer.empty,
      onSome: (settings) =>
        BankExchange.layer(settings.agreement).pipe(
          Layer.provide(BankTransport.sftpLayer(settings.sftp)),
          Layer.provide(BoletoRegistrations.layer)
        )
    })
  ).pipe(
    Layer.provideMerge(PixSettlements.layer),
    Layer.provide(
      Layer.mergeAll(
        HttpPostbackSender.layer,
        SandboxCardAcquirer.layer,
        Option.match(bank, {
          onNone: () => SandboxPayoutRail.layer,
          onSome: (settings) => Cnab240PayoutRail.layer(settings.agreement)
        }),
        Option.match(pixApi, { onNone: () => SandboxPixProvider.layer, onSome: (settings) => PixApi.layer(settings) }),
        NetworkPostbackTargets.layer,
        Layer.succeed(AllowPrivatePostbacksInTest, allowPrivate),
        Layer.succeed(PostbackLeaseSeconds, leaseSeconds),
        Layer.succeed(RetentionPeriods, retention)
      )
    ),
    Layer.provide(Database.layer(Database.configFrom(databaseUrl, undefined)))
  )
  return yield* Effect.gen(function* () {
    const expirations = yield* Expirations
    const postbacks = yield* Postbacks
    const purges = yield* Retention
    const cardCharges = yield* CardCharges
    const pixSettlements = yield* PixSettlements
    const receivables = yield* Receivables
    const withdrawals = yield* WithdrawalSweep
    const autoWithdrawals = yield* AutoWithdrawals
    const bankFiles = Option.isSome(bank) ? [(yield* BankExchange.BankExchange).run(bank.value.exchangeInterval)] : []
    yield* Effect.logInfo("worker started", { worker })
    return yield* Effect.all(
      [
        expirations.run("5 seconds"),
        postbacks.run(worker, pollInterval),
        purges.run("1 minute"),
        cardCharges.run("10 seconds"),
        receivables.run("1 minute"),
        withdrawals.run("1 second"),
        autoWithdrawals.run("1 minute"),
        pixSettlements.run({ reconcileEvery: pixReconcileEvery, sweepEvery: "10 seconds" }),
        ...bankFiles
      ],
      { concurrency: "unbounded" }
    )
  }).pipe(Effect.provide(services))
})

// A stop asked for by a signal is a clean exit (SPEC 11.2); anything else keeps its exit code.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

program.pipe(
  Effect.provideService(References.MinimumLogLevel, "Info"),
  Effect.provide(Logger.layer([Logger.consoleJson])),
  NodeRuntime.runMain({ teardown })
)
