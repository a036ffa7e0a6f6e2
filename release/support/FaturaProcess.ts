// A real Fatura server for the release's tests: `fatura serve` from this checkout's build, on the embedded database
// in a directory of its own, on a free port, with the demo company's test key and webhook secret it prints. Clients
// reach it through a proxy that holds every answer to the OpenAPI document the server serves. The client's own tests
// (packages/api/test) serve the same HTTP layer in their process instead: packages/api/test/support/FaturaServer.ts.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startContractProxy } from "../../packages/api/test/support/ContractProxy.js"
import { freePort } from "../../packages/api/test/support/FreePort.js"

const main = new URL("../../apps/server/dist/main.js", import.meta.url).pathname

export interface FaturaProcess {
  /** Where clients go: the server behind the contract-checking proxy. */
  readonly url: string
  /** The demo company's test key (`sk_test_…`). */
  readonly secretKey: string
  /** The secret that signs the demo company's test-mode postbacks (`whsec_…`). */
  readonly webhookSecret: string
  /** All it printed so far. */
  readonly output: () => string
  /** Each answer so far that the served OpenAPI document does not tell, with why. */
  readonly contractProblems: () => ReadonlyArray<string>
  /** Stops it (SIGTERM, waiting for its exit) and removes its database. */
  readonly stop: () => Promise<void>
}

const stopped = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        child.once("exit", () => resolve())
        child.kill("SIGTERM")
      })

/** `fatura serve` on a fresh embedded database, once it listens; `env` adds to its configuration. */
export const startFaturaProcess = async (env: NodeJS.ProcessEnv = {}): Promise<FaturaProcess> => {
  const dataDir = mkdtempSync(join(tmpdir(), "fatura-api-"))
  const port = await freePort()
  const child = spawn(process.execPath, [main, "serve"], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      FATURA_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      ...env
    }
  })
  let output = ""
  const append = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout?.on("data", append)
  child.stderr?.on("data", append)
  const stop = async () => {
    await stopped(child)
    rmSync(dataDir, { recursive: true, force: true })
  }
  // Shorter than the hooks' timeout (vitest.config.ts), so that a slow start fails saying what the server printed.
  const deadline = Date.now() + 90_000
  while (!output.includes("Listening on")) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop()
      throw new Error(`the server did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const secretKey = /sk_test_[0-9A-Za-z]{32}/.exec(output)?.[0]
  const webhookSecret = /whsec_[0-9A-Za-z]{32}/.exec(output)?.[0]
  if (secretKey === undefined || webhookSecret === undefined) {
    await stop()
    throw new Error(`the server printed no demo key and webhook secret:\n${output}`)
  }
  const proxy = await startContractProxy(`http://127.0.0.1:${port}`).catch(async (error) => {
    await stop()
    throw error
  })
  return {
    url: proxy.url,
    secretKey,
    webhookSecret,
    output: () => output,
    contractProblems: proxy.problems,
    stop: async () => {
      await proxy.close()
      await stop()
    }
  }
}
