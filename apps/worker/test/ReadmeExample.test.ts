// The README's example, run as its reader would run it: the shell command, from the repository's root, against a
// Postgres database of its own (TEST_DATABASE_URL names the server, as for the other worker tests).
import { spawn } from "node:child_process"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { onAdmin, servers } from "./support/FreshDatabase.js"

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

describe.each(servers)("the README's example", (admin) => {
  const database = `fatura_readme_${Date.now().toString(36)}`
  const url = new URL(admin)
  url.pathname = `/${database}`

  beforeAll(() => onAdmin(admin, `CREATE DATABASE ${database}`))
  afterAll(() => onAdmin(admin, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`))

  it("migrates the database, starts working, and is gone after SIGTERM", async () => {
    // A group of its own, so that the signal reaches the worker under the shell and pnpm, as Ctrl-C would.
    const shell = spawn("sh", [example], {
      cwd: root,
      detached: true,
      env: { ...process.env, DATABASE_URL: url.toString() }
    })
    let output = ""
    shell.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    shell.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    const started = Date.now()
    while (!output.includes("worker started")) {
      if (Date.now() - started > 60_000 || shell.exitCode !== null) {
        throw new Error(`the worker did not start:\n${output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const pid = shell.pid ?? 0
    process.kill(-pid, "SIGTERM")
    const stopping = Date.now()
    while (groupAlive(pid)) {
      if (Date.now() - stopping > 30_000) throw new Error(`the worker did not stop:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const tables = await Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return yield* sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'invoices'`
    }).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url.toString()), maxConnections: 1 })),
      Effect.runPromise
    )
    expect(tables[0]?.n).toBe(1)
  }, 120_000)
})
