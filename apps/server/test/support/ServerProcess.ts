// For the tests that run the built `fatura` program as a process: where it is, a port nobody listens on, and
// `fatura serve` started and waited for.
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"

export const main = new URL("../../dist/main.js", import.meta.url).pathname

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

/**
 * How long `fatura serve` may take to start: Node, effect, the database and its migrations on a machine busy with
 * other tests. Shorter than the hooks' timeout (vitest.config.ts), so that a slow start fails saying what it printed.
 */
export const startTimeout = 90_000

export interface ServerProcess {
  readonly child: ChildProcess
  /** All it printed so far, stdout and stderr together. */
  readonly output: () => string
}

/** `fatura serve [args]` with this environment, once it says it is listening; killed if it never does. */
export const startServer = async (env: NodeJS.ProcessEnv, args: ReadonlyArray<string> = []): Promise<ServerProcess> => {
  const child = spawn(process.execPath, [main, "serve", ...args], { env })
  let output = ""
  const append = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout?.on("data", append)
  child.stderr?.on("data", append)
  const started = Date.now()
  while (!output.includes("Listening on")) {
    if (Date.now() - started > startTimeout || child.exitCode !== null) {
      child.kill("SIGKILL")
      throw new Error(`the server did not start within ${(Date.now() - started) / 1000} s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return { child, output: () => output }
}
