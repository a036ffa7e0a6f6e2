#!/usr/bin/env node
// Entry point of the `fatura` program.
import { NodeRuntime } from "@effect/platform-node"
import * as Cli from "./Cli.js"

Cli.run("0.0.0").pipe(NodeRuntime.runMain)
