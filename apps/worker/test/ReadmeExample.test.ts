// The README's example, run as its reader would run it: the shell command, from the repository's root, against a
// Postgres database of its own (TEST_DATABASE_URL names the server, as for the other worker tests).
import { spawn } from "node:child_process"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseUrl, onAdmin } from "./support/FreshDatabase.js"
import { collect, waitForLine } from "./support/WorkerProcess.js"

const root = new URL("../../..", import.meta.url).pathname
const example = new URL("../examples/worker.sh", import.meta.url).pathname

/** Whether any process of the group led by `pid` is still running. */
const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

describe("the README's example", () => {
  const database = `fatura_readme_${Date.now().toString(36)}`
  const url = databaseUrl(database)

  beforeAll(() => onAdmin(`CREATE DATABASE ${database}`))
  afterAll(() => onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`))

  it("migrates the database, starts working, and is gone after SIGTERM", async () => {
    // A group of its own, so that the signal reaches the worker under the shell and pnpm, as Ctrl-C would.
    const shell = spawn("sh", [example], {
      cwd: root,
      detached: true,
      env: { ...process.env, DATABASE_URL: url }
    })
    const output = collect(shell)
    await waitForLine(shell, output, "worker started")
    const pid = shell.pid ?? 0
    process.kill(-pid, "SIGTERM")
    const stopping = Date.now()
    while (groupAlive(pid)) {
      if (Date.now() - stopping > 30_000) throw new Error(`the worker did not stop:\n${output()}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const tables = await Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return yield* sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'invoices'`
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.runPromise)
    expect(tables[0]?.n).toBe(1)
  }, 150_000)
})
