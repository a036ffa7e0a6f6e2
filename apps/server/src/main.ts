#!/usr/bin/env node
// Entry point of the `fatura` program.
import { readFileSync } from "node:fs"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Exit, Runtime } from "effect"
import * as Cli from "./Cli.js"

// A stop asked for by a signal is a clean exit (SPEC 11.2); anything else keeps its exit code.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

// The version changesets gave this app, so that `fatura --version` says what a deployment runs.
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }

// `Cli.run` says why a run failed, in one line (with a stack trace for a bug); the runtime adds nothing.
Cli.run(version).pipe(NodeRuntime.runMain({ disableErrorReporting: true, teardown }))
