// Retention as `fatura-worker` applies it on Postgres: on start, and every minute after, it forgets stored idempotent
// responses older than FATURA_IDEMPOTENCY_RETENTION (24 hours) and events older than FATURA_EVENT_RETENTION (30 days)
// with their deliveries and attempts — never an event whose delivery is still pending — and leaves the rest alone.
import { spawn } from "node:child_process"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseUrl, onAdmin } from "./support/FreshDatabase.js"
import { collect, main, startTimeout } from "./support/WorkerProcess.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("retention purges by fatura-worker on Postgres", () => {
  const database = `fatura_retention_${Date.now().toString(36)}`
  const url = databaseUrl(database)
  const runtime = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(url), maxConnections: 2 }))

  const query = (statement: string) =>
    runtime.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return (yield* sql.unsafe(statement)) as ReadonlyArray<Record<string, unknown>>
      })
    )

  /** Runs the worker with `env` until it has logged `until`, then stops it; what it printed, and how it exited. */
  const runWorker = async (env: Record<string, string>, until: (output: string) => boolean) => {
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, DATABASE_URL: url, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const output = collect(child)
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    const deadline = Date.now() + startTimeout
    while (!until(output()) && child.exitCode === null && Date.now() < deadline) await sleep(50)
    if (child.exitCode === null) child.kill("SIGTERM")
    return { output: output(), code: await exited }
  }

  /**
   * A company with one invoice; stored responses 25 and 23 hours old; and events 31 and 29 days old, each delivered
   * (with its attempt), and one 40 days old whose delivery is still pending, retrying tomorrow.
   */
  const seed = async () => {
    const tag = `${Date.now()}${Math.floor(Math.random() * 1000)}`
    await query(`
      WITH company AS (
        INSERT INTO companies (cnpj, corporate_reason, fantasy_name, email, fee_plan, is_custom, pix_key, created_at,
                               updated_at)
        VALUES ('${tag.slice(-14).padStart(14, "0")}', 'Antiga Ltda', 'Antiga', 'ops+${tag}@example.com', '{}', false,
                'pix+${tag}@example.com', now() - interval '60 days', now() - interval '60 days')
        RETURNING id),
      client AS (
        INSERT INTO clients (company_id, mode, document_type, document_number, name, email, created_at, updated_at)
        SELECT id, 'test', 'cpf', '52998224725', 'Cliente', 'cliente@example.com', now(), now() FROM company
        RETURNING id, company_id),
      invoice AS (
        INSERT INTO invoices (secure_id, company_id, client_id, mode, method, status, amount, installments,
                              postback_url, traceable, items, payer, token_checkout, fee, created_at, updated_at)
        SELECT gen_random_uuid(), company_id, id, 'test', 'pix', 'pending', 1000, 1, 'https://loja.example/postbacks',
               false, '[]', '{}', 'tok_${tag}', '{}', now() - interval '40 days', now() - interval '40 days'
        FROM client
        RETURNING id, company_id),
      responses AS (
        INSERT INTO idempotency_keys (principal, company_id, endpoint, key, request_hash, response_status,
                                      response_body, created_at)
        SELECT 'company ' || id || ' test', id, 'POST /api/v2/invoices', 'key-' || age, 'hash', 201,
               '{}', now() - make_interval(hours => age)
        FROM company CROSS JOIN (VALUES (25), (23)) AS ages (age)
        RETURNING 1),
      event AS (
        INSERT INTO events (id, company_id, invoice_id, type, livemode, data, created_at)
        SELECT 'evt_${tag}_' || age, company_id, id, 'invoice.created', false, '{}', now() - make_interval(days => age)
        FROM invoice CROSS JOIN (VALUES (40), (31), (29)) AS ages (age)
        RETURNING id, company_id, created_at),
      delivery AS (
        INSERT INTO deliveries (event_id, company_id, url, status, attempts, next_attempt_at, created_at, updated_at)
        SELECT id, company_id, 'https://loja.example/postbacks',
               CASE WHEN id = 'evt_${tag}_40' THEN 'pending' ELSE 'succeeded' END, 1,
               CASE WHEN id = 'evt_${tag}_40' THEN now() + interval '1 day' END, created_at, created_at
        FROM event
        RETURNING id, created_at)
      INSERT INTO delivery_attempts (delivery_id, attempt, worker, started_at, finished_at, status_code, duration_ms,
                                     succeeded)
      SELECT id, 1, 'worker-0', created_at, created_at, 200, 5, true FROM delivery`)
    return tag
  }

  const left = async (tag: string) => ({
    responses: (
      await query(`SELECT key FROM idempotency_keys WHERE principal IN (
                     SELECT 'company ' || id || ' test' FROM companies WHERE email = 'ops+${tag}@example.com')
                   ORDER BY key`)
    ).map((row) => row.key),
    events: (await query(`SELECT id FROM events WHERE id LIKE 'evt_${tag}_%' ORDER BY id`)).map((row) => row.id),
    deliveries: (
      await query(`SELECT event_id, status FROM deliveries WHERE event_id LIKE 'evt_${tag}_%' ORDER BY event_id`)
    ).map((row) => `${row.event_id} ${row.status}`),
    attempts: Number(
      (
        await query(`SELECT count(*)::int AS n FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
                     WHERE d.event_id LIKE 'evt_${tag}_%'`)
      )[0]?.n
    )
  })

  beforeAll(async () => {
    await onAdmin(`CREATE DATABASE ${database}`)
    // A first worker migrates the database.
    const migrated = await runWorker({}, (output) => output.includes("worker started"))
    expect(migrated.code, migrated.output).toBe(0)
  })

  afterAll(async () => {
    await runtime.dispose()
    await onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  })

  it("purges on start what is past the default retention, and nothing within it", async () => {
    const tag = await seed()
    const { output, code } = await runWorker({}, (output) => output.includes("purged what is past its retention"))
    expect(code, output).toBe(0)
    expect(output).toContain('"idempotencyRecords":1,"events":1')
    expect(await left(tag)).toEqual({
      responses: ["key-23"],
      events: [`evt_${tag}_29`, `evt_${tag}_40`],
      deliveries: [`evt_${tag}_29 succeeded`, `evt_${tag}_40 pending`],
      attempts: 2
    })
  }, 120_000)

  it("reads the retention periods from FATURA_IDEMPOTENCY_RETENTION and FATURA_EVENT_RETENTION", async () => {
    const tag = await seed()
    const env = { FATURA_IDEMPOTENCY_RETENTION: "22 hours", FATURA_EVENT_RETENTION: "28 days" }
    const { output, code } = await runWorker(env, (output) => output.includes("purged what is past its retention"))
    expect(code, output).toBe(0)
    expect(await left(tag)).toEqual({
      responses: [],
      events: [`evt_${tag}_40`],
      deliveries: [`evt_${tag}_40 pending`],
      attempts: 1
    })
  }, 120_000)

  it("refuses to start with a retention that is not longer than zero, saying which", async () => {
    const { output, code } = await runWorker({ FATURA_EVENT_RETENTION: "-1 days" }, () => false)
    expect(code).not.toBe(0)
    expect(output).toContain("FATURA_EVENT_RETENTION")
  }, 120_000)
})
