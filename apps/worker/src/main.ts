#!/usr/bin/env node
// Entry point of `fatura-worker` (SPEC 12.2): the background work of the service against Postgres. Any number
// of workers may run at once; each sweep locks what it takes and skips what another worker holds.
import { NodeRuntime } from "@effect/platform-node"
import { Expirations, InvoiceLifecycle } from "@fatura/application"
import { Database } from "@fatura/persistence"
import { Cause, Config, Effect, Exit, Layer, Logger, References, Runtime } from "effect"

const program = Effect.gen(function* () {
  const databaseUrl = yield* Config.String("DATABASE_URL").pipe(Config.withDefault(""))
  if (databaseUrl === "") {
    return yield* Effect.fail(
      new Error("fatura-worker needs DATABASE_URL (in embedded mode the server does this work itself)")
    )
  }
  const services = Expirations.layer.pipe(
    Layer.provide(InvoiceLifecycle.layer),
    Layer.provide(Database.layer(Database.configFrom(databaseUrl, undefined)))
  )
  return yield* Effect.gen(function* () {
    const expirations = yield* Expirations
    yield* Effect.logInfo("worker started")
    return yield* expirations.run("5 seconds")
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
