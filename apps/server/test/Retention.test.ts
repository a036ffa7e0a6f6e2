// Retention in embedded mode (SPEC 8.3): `fatura serve` on PGlite is its own worker, and on start (then every
// minute) forgets stored idempotent responses older than FATURA_IDEMPOTENCY_RETENTION (24 hours unless set) and events
// older than FATURA_EVENT_RETENTION with their deliveries and attempts — never one whose delivery is still pending —
// leaving the rest alone.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Database } from "@fatura/persistence"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort, startServer } from "./support/ServerProcess.js"

/** Runs `statements` in order on the embedded database in `dataDir`, opened (and migrated) for them alone. */
const onEmbedded = async (dataDir: string, statements: ReadonlyArray<string>) => {
  const runtime = ManagedRuntime.make(Database.layer({ _tag: "Embedded", dataDir }))
  try {
    return await runtime.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const results: Array<ReadonlyArray<Record<string, unknown>>> = []
        for (const statement of statements) {
          results.push((yield* sql.unsafe(statement)) as ReadonlyArray<Record<string, unknown>>)
        }
        return results
      })
    )
  } finally {
    await runtime.dispose()
  }
}

describe("fatura serve on an embedded database, as its own worker", () => {
  let dataDir: string

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "fatura-retention-"))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it("purges on start the responses and events past their retention, and nothing within it", async () => {
    // Responses 23 and 25 hours old; events 40 (its delivery still pending), 29 and 27 days old, each delivered.
    await onEmbedded(dataDir, [
      `INSERT INTO companies (cnpj, corporate_reason, fantasy_name, email, fee_plan, is_custom, pix_key, created_at,
                              updated_at)
       VALUES ('11222333000181', 'Antiga Ltda', 'Antiga', 'ops@antiga.example', '{}', false, 'ops@antiga.example',
               now(), now())`,
      `INSERT INTO clients (company_id, mode, document_type, document_number, name, email, created_at, updated_at)
       VALUES (1, 'test', 'cpf', '52998224725', 'Cliente', 'cliente@example.com', now(), now())`,
      `INSERT INTO invoices (secure_id, company_id, client_id, mode, method, status, amount, installments,
                             postback_url, traceable, items, payer, token_checkout, fee, created_at, updated_at)
       VALUES (gen_random_uuid(), 1, 1, 'test', 'pix', 'pending', 1000, 1, 'https://loja.example/postbacks', false,
               '[]', '{}', 'tok_antiga', '{}', now() - interval '40 days', now() - interval '40 days')`,
      `INSERT INTO idempotency_keys (principal, company_id, endpoint, key, request_hash, response_status,
                                     response_body, created_at)
       SELECT 'company 1 test', 1, 'POST /api/v2/invoices', 'key-' || age, 'hash', 201, '{}',
              now() - make_interval(hours => age)
       FROM (VALUES (25), (23)) AS ages (age)`,
      `INSERT INTO events (id, company_id, invoice_id, type, livemode, data, created_at)
       SELECT 'evt_' || age, 1, 1, 'invoice.created', false, '{}', now() - make_interval(days => age)
       FROM (VALUES (40), (29), (27)) AS ages (age)`,
      `INSERT INTO deliveries (event_id, company_id, url, status, attempts, next_attempt_at, created_at, updated_at)
       SELECT id, 1, 'https://loja.example/postbacks', CASE WHEN id = 'evt_40' THEN 'pending' ELSE 'succeeded' END,
              1, CASE WHEN id = 'evt_40' THEN now() + interval '1 day' END, created_at, created_at
       FROM events`,
      `INSERT INTO delivery_attempts (delivery_id, attempt, worker, started_at, finished_at, status_code,
                                      duration_ms, succeeded)
       SELECT id, 1, 'worker-0', created_at, created_at, 200, 5, true FROM deliveries`
    ])

    const port = await freePort()
    const server = await startServer({
      ...process.env,
      DATABASE_URL: "",
      FATURA_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      // Past 28 days instead of 30: the 29-day-old event goes too.
      FATURA_EVENT_RETENTION: "28 days"
    })
    const exited = new Promise((resolve) => server.child.once("exit", resolve))
    try {
      const deadline = Date.now() + 30_000
      while (!server.output().includes("purged what is past its retention") && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(server.output()).toContain('"idempotencyRecords":1,"events":1')
    } finally {
      server.child.kill("SIGTERM")
      await exited
    }

    const [responses, events, attempts] = await onEmbedded(dataDir, [
      "SELECT key FROM idempotency_keys ORDER BY key",
      "SELECT e.id, d.status FROM events e JOIN deliveries d ON d.event_id = e.id ORDER BY e.id",
      "SELECT count(*)::int AS n FROM delivery_attempts"
    ])
    expect(responses).toEqual([{ key: "key-23" }])
    expect(events).toEqual([
      { id: "evt_27", status: "succeeded" },
      { id: "evt_40", status: "pending" }
    ])
    expect(attempts).toEqual([{ n: 2 }])
  }, 150_000)
})
