#!/usr/bin/env node
// Entry point of `fatura-pix-psp`: a local PSP speaking the API Pix, for development and tests. It prints the
// settings a client needs as `export` lines on stdout (logs go to stderr), then serves until SIGTERM or Ctrl-C.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Console, Effect, Exit, Logger, References, Runtime } from "effect"
import { exportLines } from "./ClientSettings.js"
import * as PixPsp from "./PixPsp.js"
import { PspSettings } from "./PspSettings.js"

const program = Effect.gen(function* () {
  const settings = yield* PspSettings.fromEnvironment
  const psp = yield* PixPsp.start(settings)
  yield* Console.log(exportLines(psp.clientSettings).join("\n"))
  yield* Effect.logInfo("pix-psp started", { url: psp.baseUrl, dir: settings.dir })
  return yield* Effect.never
}).pipe(Effect.scoped)

// A stop asked for by a signal is a clean exit; anything else keeps its exit code.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

program.pipe(
  Effect.provideService(References.MinimumLogLevel, "Info"),
  Effect.provide(Logger.layer([Logger.withConsoleError(Logger.formatJson)])),
  NodeRuntime.runMain({ teardown })
)
