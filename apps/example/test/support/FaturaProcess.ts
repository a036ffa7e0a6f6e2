// The built `fatura serve` beside the example, on an embedded database of its own in a temporary directory, as a
// reader runs it: started and waited for, with all it printed (stdout and stderr) in the failure when it does not
// start — well before the hook's own timeout, so that a slow start on a busy machine says what the server said.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

const main = new URL("../../../server/dist/main.js", import.meta.url).pathname

/** How long the server may take to start: Node, effect, PGlite and the migrations on a busy machine. */
export const startTimeout = 90_000

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

export interface FaturaProcess {
  readonly child: ChildProcess
  readonly port: number
  /** All it printed so far, stdout and stderr together. */
  readonly output: () => string
  /** SIGTERM, then waits for it to exit and removes its data directory. */
  readonly stop: () => Promise<void>
}

export const startFatura = async (): Promise<FaturaProcess> => {
  const dataDir = mkdtempSync(join(tmpdir(), "fatura-example-"))
  const port = await freePort()
  const child = spawn(process.execPath, [main, "serve"], {
    env: { ...process.env, DATABASE_URL: "", FATURA_DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" }
  })
  let output = ""
  const append = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout?.on("data", append)
  child.stderr?.on("data", append)
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGTERM")
      await exited
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
  const started = Date.now()
  while (!output.includes("Listening on")) {
    const gone = child.exitCode !== null || child.signalCode !== null
    if (gone || Date.now() - started > startTimeout) {
      if (!gone) child.kill("SIGKILL")
      rmSync(dataDir, { recursive: true, force: true })
      throw new Error(`the server did not start within ${(Date.now() - started) / 1000} s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { child, port, output: () => output, stop }
}
