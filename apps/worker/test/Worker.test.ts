// The `fatura-worker` program as an operator runs it.
import { execFile, spawn } from "node:child_process"
import { promisify } from "node:util"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseUrl, onAdmin } from "./support/FreshDatabase.js"
import { collect, main, waitForLine } from "./support/WorkerProcess.js"

const run = promisify(execFile)

describe("fatura-worker", () => {
  it("refuses to start without DATABASE_URL, saying why", async () => {
    const failure = await run(process.execPath, [main], { env: { ...process.env, DATABASE_URL: "" } }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error
    )
    expect(failure?.code).not.toBe(0)
    expect(`${failure?.stdout}${failure?.stderr}`).toContain("needs DATABASE_URL")
  })
})

describe("fatura-worker on Postgres", () => {
  const database = `fatura_worker_${Date.now().toString(36)}`
  const url = databaseUrl(database)

  beforeAll(() => onAdmin(`CREATE DATABASE ${database}`))
  afterAll(() => onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`))

  it("starts, migrates the database, and stops cleanly on SIGTERM", async () => {
    const worker = spawn(process.execPath, [main], { env: { ...process.env, DATABASE_URL: url } })
    const output = collect(worker)
    await waitForLine(worker, output, "worker started")
    const exited = new Promise<number | null>((resolve) => worker.once("exit", (code) => resolve(code)))
    worker.kill("SIGTERM")
    expect(await exited).toBe(0)
    const tables = await Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return yield* sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'invoices'`
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.runPromise)
    expect(tables[0]?.n).toBe(1)
  }, 120_000)
})
