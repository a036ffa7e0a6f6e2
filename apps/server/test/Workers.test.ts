// `fatura serve --workers N`: on Postgres, N processes answer on one port, a worker that dies is replaced, and SIGTERM
// stops them all and exits 0 (SPEC 11.2); one per core by default. The embedded database, which one process holds,
// refuses more than one.
import { execFile } from "node:child_process"
import { request } from "node:http"
import { availableParallelism } from "node:os"
import { promisify } from "node:util"
import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort, main, type ServerProcess, startServer } from "./support/ServerProcess.js"
import { postgres } from "./support/TestDatabases.js"

const adminUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"

/** GET on a connection of its own, so that the cluster may hand each request to another worker. */
const getOnNewConnection = (port: number, path: string) =>
  new Promise<number>((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, path, agent: false }, (response) => {
      response.resume()
      response.on("end", () => resolve(response.statusCode ?? 0))
    })
    sent.on("error", reject)
    sent.end()
  })

/** The pids of the processes that said they were listening, from the JSON log lines. */
const listeningPids = (output: string) =>
  new Set(
    output
      .split("\n")
      .filter((line) => line.startsWith("{") && line.includes('"Listening on'))
      .map((line) => JSON.parse(line).annotations.pid as number)
  )

/** The pids that logged an answer to a request. */
const answeringPids = (output: string) =>
  new Set(
    output
      .split("\n")
      .filter((line) => line.startsWith("{") && line.includes('"message":"request"'))
      .map((line) => JSON.parse(line).annotations.pid as number)
  )

const until = async (condition: () => boolean, what: string, output: () => string) => {
  const deadline = Date.now() + 60_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const exitOf = (server: ServerProcess) =>
  new Promise<number | null>((resolve) =>
    server.child.exitCode !== null ? resolve(server.child.exitCode) : server.child.once("exit", (code) => resolve(code))
  )

describe("fatura serve --workers on Postgres", () => {
  let databaseUrl: string
  let release: () => Promise<void>
  const servers: Array<ServerProcess> = []

  beforeAll(async () => {
    const acquired = await postgres(adminUrl)
      .acquire()
      .catch((error) => {
        throw new Error(`these tests need a Postgres server at ${adminUrl} (set TEST_DATABASE_URL): ${error}`)
      })
    if (acquired.config._tag !== "Postgres") throw new Error("expected a Postgres database")
    databaseUrl = Redacted.value(acquired.config.url)
    release = acquired.release
  })

  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL")
    await release?.()
  })

  const serve = async (args: ReadonlyArray<string>) => {
    const port = await freePort()
    const server = await startServer(
      { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1", FATURA_METRICS_TOKEN: "" },
      args
    )
    servers.push(server)
    return { port, server }
  }

  it("answers from every worker on one port, replaces one that dies, and stops them all on SIGTERM", async () => {
    const { port, server } = await serve(["--workers", "2"])
    await until(() => listeningPids(server.output()).size === 2, "two workers listening", server.output)
    const workers = [...listeningPids(server.output())]
    expect(workers).not.toContain(server.child.pid)

    const statuses = await Promise.all(Array.from({ length: 20 }, () => getOnNewConnection(port, "/health")))
    expect(statuses.every((status) => status === 200)).toBe(true)
    await until(() => answeringPids(server.output()).size === 2, "answers from both workers", server.output)
    // Without a metrics token no worker serves them, and how to have them is said once, not once per worker.
    const metrics = await Promise.all(Array.from({ length: 6 }, () => getOnNewConnection(port, "/metrics")))
    expect(metrics).toEqual(Array.from({ length: 6 }, () => 404))
    expect(server.output().split("GET /metrics is not served").length - 1, server.output()).toBe(1)

    process.kill(workers[0]!, "SIGKILL")
    await until(() => listeningPids(server.output()).size === 3, "a third worker listening", server.output)
    expect(server.output()).toMatch(new RegExp(`worker ${workers[0]} exited \\(signal SIGKILL\\); started worker \\d+`))
    expect(await getOnNewConnection(port, "/health")).toBe(200)

    const running = [...listeningPids(server.output())].filter(isAlive)
    expect(running).toHaveLength(2)
    server.child.kill("SIGTERM")
    expect(await exitOf(server)).toBe(0)
    expect(running.filter(isAlive)).toEqual([])
  }, 120_000)

  it("runs one worker per core unless told", async () => {
    const { server } = await serve([])
    const cores = availableParallelism()
    if (cores > 1) {
      await until(() => listeningPids(server.output()).size === cores, `${cores} workers listening`, server.output)
      expect(server.output()).toContain(`serving with ${cores} worker processes`)
    } else {
      expect(server.output()).not.toContain("worker processes")
    }
    server.child.kill("SIGTERM")
    expect(await exitOf(server)).toBe(0)
  }, 120_000)
})

describe("fatura serve --workers on the embedded database", () => {
  it("refuses more than one, saying why", async () => {
    const failure = await promisify(execFile)(process.execPath, [main, "serve", "--workers", "2"], {
      env: { ...process.env, DATABASE_URL: "", FATURA_DATA_DIR: "/nonexistent/fatura" }
    }).then(
      (success) => {
        throw new Error(`expected a failure, got ${JSON.stringify(success)}`)
      },
      (error: { code: number; stdout: string; stderr: string }) => error
    )
    expect(failure.code).not.toBe(0)
    expect(`${failure.stdout}${failure.stderr}`).toContain("the embedded database is held by one process")
    expect(`${failure.stdout}${failure.stderr}`).not.toMatch(/\bat .*\.js:\d+/)
  })
})
