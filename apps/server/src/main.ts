#!/usr/bin/env node
// Entry point of the `fatura` program.
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Exit, Runtime } from "effect"
import * as Cli from "./Cli.js"

// A stop asked for by a signal is a clean exit (SPEC 11.2); anything else keeps its exit code.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

Cli.run("0.0.0").pipe(NodeRuntime.runMain({ teardown }))
