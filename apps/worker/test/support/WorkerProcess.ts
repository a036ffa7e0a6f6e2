// For the tests that run the built `fatura-worker` (or a command that starts it) as a process: all it prints,
// stdout and stderr together, and a wait for a line that fails with that output — well before the test's own
// timeout, so that a slow start on a busy machine says what the worker said instead of timing out silently.
import type { ChildProcess } from "node:child_process"

export const main = new URL("../../dist/main.js", import.meta.url).pathname

/** How long a worker may take to start: Node, effect and the migrations on a machine busy with other tests. */
export const startTimeout = 90_000

/** Everything `child` prints from now on, stdout and stderr together. */
export const collect = (child: ChildProcess): (() => string) => {
  let output = ""
  const append = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout?.on("data", append)
  child.stderr?.on("data", append)
  return () => output
}

/** Waits until `output` says `line`; fails with all it printed if the process exits first or `ms` pass. */
export const waitForLine = async (child: ChildProcess, output: () => string, line: string, ms = startTimeout) => {
  const started = Date.now()
  while (!output().includes(line)) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the process exited (${child.exitCode ?? child.signalCode}) before "${line}":\n${output()}`)
    }
    if (Date.now() - started > ms) throw new Error(`no "${line}" within ${ms / 1000} s:\n${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
