#!/usr/bin/env node
// Entry point of `fatura-bank`: a local bank for development and tests. It prints the settings Fatura needs as
// `export` lines, then where it keeps its files and where its simulator listens, on stdout (logs go to stderr), and
// serves until SIGTERM or Ctrl-C.
import * as LocalBank from "./LocalBank.js"
import { fromEnvironment } from "./Settings.js"

const log = (message: string, fields: Record<string, unknown> = {}) =>
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), message, ...fields })}\n`)

const bank = await LocalBank.start(fromEnvironment(), log)
process.stdout.write(
  `${[...LocalBank.exportLines(bank.settings), `bank files: ${bank.filesDir}`, `bank simulator: ${bank.simulatorUrl}`].join("\n")}\n`
)
log("bank started", { files: bank.filesDir, simulator: bank.simulatorUrl })

const stop = () => {
  bank.stop().then(() => process.exit(0))
}
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
