// `fatura-worker` as a process of its own, which a scenario kills and starts again.
import { type ChildProcess, spawn } from "node:child_process"

const workerMain = new URL("../../../worker/dist/main.js", import.meta.url).pathname

export interface Worker {
  /** Starts it; resolves once it says it started. */
  readonly start: () => Promise<void>
  /** SIGKILL: no chance to finish anything. */
  readonly kill: () => Promise<void>
  readonly stop: () => Promise<void>
  /** All every start of it printed. */
  readonly output: () => string
}

/** `fatura-worker` on `databaseUrl`, with `settings` besides the test's environment. */
export const workerOn = (databaseUrl: string, settings: Record<string, string> = {}): Worker => {
  let child: ChildProcess | undefined
  let printed = ""
  const start = () => {
    const since = printed.length
    const started = spawn(process.execPath, [workerMain], {
      env: { ...process.env, ...settings, DATABASE_URL: databaseUrl }
    })
    child = started
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fatura-worker did not start:\n${printed.slice(since)}`)), 90_000)
      const append = (chunk: Buffer) => {
        printed += chunk.toString()
        if (printed.slice(since).includes("worker started")) {
          clearTimeout(timer)
          resolve()
        }
      }
      started.stdout?.on("data", append)
      started.stderr?.on("data", append)
      // After all it printed was read: a worker killed once it had started has resolved already.
      started.once("close", (code, signal) => {
        clearTimeout(timer)
        reject(new Error(`fatura-worker exited (${code ?? signal}) before starting:\n${printed.slice(since)}`))
      })
    })
  }
  const signal = async (name: NodeJS.Signals) => {
    const running = child
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise((resolve) => running.once("exit", resolve))
    running.kill(name)
    await exited
  }
  return { start, kill: () => signal("SIGKILL"), stop: () => signal("SIGTERM"), output: () => printed }
}
