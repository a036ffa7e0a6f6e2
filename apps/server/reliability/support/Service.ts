// The built `fatura` program as a real process on a Postgres database: the CLI for companies and keys, and the
// server, which a scenario may kill and start again on the same port. All it printed is kept for the final scan.
import { type ChildProcess, execFile } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { promisify } from "node:util"
import { nextCnpj } from "../../test/support/Cnpj.js"
import { checkedFetch } from "../../test/support/Contract.js"
import { freePort, main, startServer } from "../../test/support/ServerProcess.js"

const run = promisify(execFile)

const outputs: Array<{ readonly name: string; readonly text: () => string }> = []

/** Everything every process of this run printed (logs included), for the final scan. */
export const printed = (): ReadonlyArray<string> => outputs.map((output) => output.text())

/** Writes what each process printed to `test-results/reliability/`, for reading after a failure. */
export const savePrinted = () => {
  const directory = new URL("../../../../test-results/reliability/", import.meta.url).pathname
  rmSync(directory, { recursive: true, force: true })
  mkdirSync(directory, { recursive: true })
  outputs.forEach((output, index) => {
    writeFileSync(`${directory}${String(index).padStart(3, "0")}-${output.name}.log`, output.text())
  })
}

/**
 * The lease by which a create (it calls a provider) holds its Idempotency-Key: the shortest the server takes with the
 * sandbox's providers, longer than a create can run, so that a repeat after a kill or an outage waits 30 s, not 60.
 */
export const idempotencyLeaseSeconds = 30

const environment = (databaseUrl: string, extra: Record<string, string> = {}) => ({
  ...process.env,
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: "info",
  FATURA_IDEMPOTENCY_LEASE_SECONDS: String(idempotencyLeaseSeconds),
  ...extra
})

export const fatura = async (databaseUrl: string, ...args: Array<string>): Promise<string> => {
  const { stdout, stderr } = await run(process.execPath, [main, ...args], { env: environment(databaseUrl) })
  outputs.push({ name: args.slice(0, 2).join("-"), text: () => stdout + stderr })
  return stdout
}

export interface Company {
  readonly id: number
  readonly testKey: string
  readonly liveKey: string
}

/** A company made the way an operator makes one, with a test key and a live key. */
export const createCompany = async (databaseUrl: string, name: string): Promise<Company> => {
  const printedCompany = await fatura(
    databaseUrl,
    "company",
    "create",
    "--name",
    name,
    "--cnpj",
    nextCnpj(),
    "--email",
    "financeiro@example.com"
  )
  const id = Number(/company id\s+(\d+)/.exec(printedCompany)?.[1])
  const testKey = /sk_test_[0-9A-Za-z]{32}/.exec(printedCompany)?.[0]
  const liveKey = /sk_live_[0-9A-Za-z]{32}/.exec(await fatura(databaseUrl, "keys", "create", String(id), "--live"))?.[0]
  if (!Number.isInteger(id) || testKey === undefined || liveKey === undefined) {
    throw new Error(`unexpected output of the CLI:\n${printedCompany}`)
  }
  return { id, testKey, liveKey }
}

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly body: any
}

export interface RequestOptions {
  readonly key?: string | undefined
  readonly body?: unknown
  readonly headers?: Record<string, string> | undefined
  /** How long the client waits for the whole answer. */
  readonly timeoutMs?: number | undefined
}

export interface Service {
  readonly baseUrl: string
  readonly start: () => Promise<void>
  /** SIGKILL: no chance to finish anything. */
  readonly kill: () => Promise<void>
  /** SIGTERM, as an operator stops it. */
  readonly stop: () => Promise<void>
  readonly isRunning: () => boolean
  readonly request: (method: string, path: string, options?: RequestOptions) => Promise<Reply>
}

const exitOf = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())
  )

export const serve = async (
  name: string,
  databaseUrl: string,
  settings: Record<string, string> = {}
): Promise<Service> => {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  let child: ChildProcess | undefined

  const start = async () => {
    const started = await startServer(environment(databaseUrl, { PORT: String(port), HOST: "127.0.0.1", ...settings }))
    child = started.child
    outputs.push({ name: `serve-${name}`, text: started.output })
  }

  const signal = async (name: NodeJS.Signals) => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
    const exited = exitOf(child)
    child.kill(name)
    await exited
  }

  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
    let body: string | undefined
    if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers["content-type"] ??= "application/json"
    }
    const response = await checkedFetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000)
    })
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return { status: response.status, headers: response.headers, text, body: parsed }
  }

  await start()
  return {
    baseUrl,
    start,
    kill: () => signal("SIGKILL"),
    stop: () => signal("SIGTERM"),
    isRunning: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    request
  }
}
