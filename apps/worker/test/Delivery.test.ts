// SPEC 8.3 with real processes: several `fatura-worker`s share the postback deliveries of one Postgres
// database, a delivery is never in flight at two workers at once, and one whose worker was killed mid-attempt
// is taken up again after its lease — against a local receiver on loopback.
import { type ChildProcess, spawn } from "node:child_process"
import { createServer, type Server } from "node:http"
import { hostname } from "node:os"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseUrl, onAdmin } from "./support/FreshDatabase.js"
import { collect, main, startTimeout } from "./support/WorkerProcess.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `done()` holds, or fails after `ms` with what `state()` says. */
const waitFor = async (what: string, ms: number, done: () => boolean | Promise<boolean>, state = () => "") => {
  const deadline = Date.now() + ms
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done within ${ms / 1000} s ${state()}`)
    await sleep(50)
  }
}

interface Worker {
  readonly process: ChildProcess
  /** The name the worker records in `delivery_attempts.worker` and `deliveries.leased_by`. */
  readonly name: string
  readonly output: () => string
  readonly exited: Promise<void>
}

interface Request {
  readonly eventId: string
  /** How many times this event id has arrived, this one included. */
  readonly nth: number
  readonly respond: (status: number) => void
}

/**
 * A merchant's endpoint on loopback. For every event id it knows whether a request is open (arrived, not yet
 * answered nor dropped): a second request for an id that is still open is a delivery in flight twice.
 */
const startReceiver = async (handle: (request: Request) => void) => {
  const arrivals = new Map<string, number>()
  const open = new Set<string>()
  const violations: Array<string> = []
  let total = 0
  const server: Server = createServer((request, response) => {
    const eventId = String(request.headers["x-fatura-event-id"] ?? "")
    total++
    if (open.has(eventId)) violations.push(eventId)
    open.add(eventId)
    const nth = (arrivals.get(eventId) ?? 0) + 1
    arrivals.set(eventId, nth)
    let closed = false
    // Answered, or the connection went away (the sender died): the request is no longer in flight.
    response.on("close", () => {
      closed = true
      open.delete(eventId)
    })
    request.resume()
    request.on("end", () =>
      handle({
        eventId,
        nth,
        respond: (status) => {
          if (!closed) response.writeHead(status).end("ok")
        }
      })
    )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}/postbacks`,
    arrivals,
    violations,
    total: () => total,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

describe("postback delivery by fatura-worker processes on Postgres (SPEC 8.3)", () => {
  const database = `fatura_delivery_${Date.now().toString(36)}`
  const url = databaseUrl(database)
  const workers: Array<Worker> = []
  const runtime = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(url), maxConnections: 2 }))

  const query = (statement: string) =>
    runtime.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return (yield* sql.unsafe(statement)) as ReadonlyArray<Record<string, unknown>>
      })
    )

  const startWorker = (env: Record<string, string> = {}): Worker => {
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, DATABASE_URL: url, FATURA_WORKER_POLL_INTERVAL: "200 millis", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const output = collect(child)
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve()
      else child.once("exit", () => resolve())
    })
    const worker = { process: child, name: `${hostname()}-${child.pid}`, output, exited }
    workers.push(worker)
    return worker
  }

  const running = (worker: Worker) => worker.process.exitCode === null && worker.process.signalCode === null

  const started = (worker: Worker) =>
    waitFor(
      "the worker to start",
      startTimeout,
      () => {
        if (!running(worker)) throw new Error(`the worker exited before it started:\n${worker.output()}`)
        return worker.output().includes("worker started")
      },
      () => `:\n${worker.output()}`
    )

  /** Stops a worker: SIGTERM, then SIGKILL if it has not gone within 5 s. */
  const stop = async (worker: Worker) => {
    if (!running(worker)) return
    worker.process.kill("SIGTERM")
    const gone = await Promise.race([worker.exited.then(() => true), sleep(5_000).then(() => false)])
    if (!gone) {
      worker.process.kill("SIGKILL")
      await worker.exited
    }
  }

  /** A company, a client, one paid invoice and `count` events on it, each with a delivery to `target` due now. */
  const seed = async (count: number, target: string) => {
    const tag = `${Date.now()}${Math.floor(Math.random() * 1000)}`
    const rows = await query(`
      WITH company AS (
        INSERT INTO companies (cnpj, corporate_reason, fantasy_name, email, fee_plan, is_custom, pix_key, created_at,
                               updated_at)
        VALUES ('${tag.slice(-14).padStart(14, "0")}', 'Entregas Ltda', 'Entregas', 'ops+${tag}@example.com', '{}',
                false, 'pix+${tag}@example.com', now(), now())
        RETURNING id),
      secret AS (
        INSERT INTO webhook_secrets (company_id, mode, secret, created_at)
        SELECT id, 'test', 'whsec_${tag}', now() FROM company),
      client AS (
        INSERT INTO clients (company_id, mode, document_type, document_number, name, email, created_at, updated_at)
        SELECT id, 'test', 'cpf', '52998224725', 'Cliente', 'cliente@example.com', now(), now() FROM company
        RETURNING id, company_id),
      invoice AS (
        INSERT INTO invoices (secure_id, company_id, client_id, mode, method, status, amount, installments,
                              postback_url, traceable, items, payer, token_checkout, fee, created_at, updated_at,
                              paid_at)
        SELECT gen_random_uuid(), company_id, id, 'test', 'credit_card', 'paid', 1000, 1, '${target}', false, '[]',
               '{}', 'tok_${tag}', '{}', now(), now(), now()
        FROM client
        RETURNING id, company_id),
      event AS (
        INSERT INTO events (id, company_id, invoice_id, type, livemode, data, created_at)
        SELECT 'evt_' || gen_random_uuid(), company_id, id, 'invoice.paid', false, jsonb_build_object('n', n), now()
        FROM invoice, generate_series(1, ${count}) AS n
        RETURNING id, company_id)
      INSERT INTO deliveries (event_id, company_id, url, status, next_attempt_at, created_at, updated_at)
      SELECT id, company_id, '${target}', 'pending', now(), now(), now() FROM event
      RETURNING id, event_id`)
    expect(rows).toHaveLength(count)
    return {
      deliveryIds: rows.map((row) => Number(row.id)),
      eventIds: rows.map((row) => String(row.event_id))
    }
  }

  beforeAll(async () => {
    await onAdmin(`CREATE DATABASE ${database}`)
    // A first worker migrates the database.
    const migrator = startWorker()
    try {
      await started(migrator)
    } finally {
      await stop(migrator)
    }
  })

  afterAll(async () => {
    for (const worker of workers) {
      if (running(worker)) worker.process.kill("SIGKILL")
    }
    await Promise.all(workers.map((worker) => worker.exited))
    await runtime.dispose()
    await onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  })

  it("three workers deliver 2 000 events, each at least once, never in flight at two workers at once", async () => {
    const count = 2_000
    // Each answer takes a few milliseconds, so that many requests are open at once.
    const receiver = await startReceiver((request) => {
      setTimeout(() => request.respond(200), 2 + Math.floor(Math.random() * 10))
    })
    const three = [startWorker(), startWorker(), startWorker()]
    try {
      await Promise.all(three.map(started))
      const { deliveryIds, eventIds } = await seed(count, receiver.url)
      const ours = (column: string) => `${column} IN (${deliveryIds.join(",")})`
      const pending = async () =>
        Number(
          (await query(`SELECT count(*)::int AS n FROM deliveries WHERE ${ours("id")} AND status <> 'succeeded'`))[0]?.n
        )
      let left = count
      await waitFor(
        "the three workers delivering 2 000 events",
        90_000,
        async () => {
          left = await pending()
          return left === 0
        },
        () =>
          `(${left} deliveries not succeeded, ${receiver.arrivals.size} distinct events received; ` +
          `workers running: ${three.filter(running).length})`
      )

      // Every event arrived at least once, and none was sent while a request for it was still open.
      expect(receiver.arrivals.size).toBe(count)
      expect(eventIds.filter((id) => !receiver.arrivals.has(id))).toEqual([])
      expect(receiver.violations).toEqual([])

      // Every delivery ended succeeded, settled by the attempt of the lease it held.
      const deliveries = await query(
        `SELECT status, count(*)::int AS n FROM deliveries WHERE ${ours("id")} GROUP BY status`
      )
      expect(deliveries).toEqual([{ status: "succeeded", n: count }])
      const unsettled = await query(`
        SELECT d.id FROM deliveries d
        WHERE ${ours("d.id")}
          AND NOT EXISTS (SELECT 1 FROM delivery_attempts a
                          WHERE a.delivery_id = d.id AND a.attempt = d.attempts AND a.succeeded)`)
      expect(unsettled).toEqual([])
      // At most one attempt row per (delivery, attempt): one lease, one worker, one attempt.
      const twice = await query(`
        SELECT delivery_id, attempt, count(*)::int AS n FROM delivery_attempts
        WHERE ${ours("delivery_id")} GROUP BY delivery_id, attempt HAVING count(*) > 1`)
      expect(twice).toEqual([])
      const beyond = await query(`
        SELECT a.delivery_id FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
        WHERE ${ours("a.delivery_id")} AND (a.attempt > d.attempts OR a.attempt < 1)`)
      expect(beyond).toEqual([])

      // The work was shared, and only by these three workers.
      const byWorker = await query(
        `SELECT worker, count(*)::int AS n FROM delivery_attempts WHERE ${ours("delivery_id")} GROUP BY worker ORDER BY worker`
      )
      const names = three.map((worker) => worker.name)
      expect(byWorker.length).toBeGreaterThanOrEqual(2)
      for (const row of byWorker) expect(names).toContain(row.worker)
      expect(receiver.total()).toBeGreaterThanOrEqual(count)
    } finally {
      await Promise.all(three.map(stop))
      await receiver.stop()
    }
  }, 210_000)

  it("a delivery whose worker was killed mid-attempt is taken up again after its lease", async () => {
    const env = { FATURA_POSTBACK_LEASE_SECONDS: "3" }
    let held: Request | undefined
    const receiver = await startReceiver((request) => {
      // The first request is held open, unanswered; the next one is answered.
      if (request.nth === 1) held = request
      else request.respond(200)
    })
    const first = startWorker(env)
    let second: Worker | undefined
    try {
      await started(first)
      const seeded = await seed(1, receiver.url)
      const deliveryId = seeded.deliveryIds[0]!
      const eventId = seeded.eventIds[0]!
      await waitFor("the first attempt to arrive", 20_000, () => held !== undefined)
      expect(held?.eventId).toBe(eventId)
      const claimed = await query(
        `SELECT attempts, leased_by, status, fatura_ts(lease_until) AS lease_until,
                extract(epoch FROM lease_until - updated_at)::float8 AS lease_seconds
         FROM deliveries WHERE id = ${deliveryId}`
      )
      expect(claimed).toMatchObject([{ attempts: 1, leased_by: first.name, status: "pending" }])
      const leaseUntil = Date.parse(String(claimed[0]?.lease_until))

      // kill -9 mid-attempt: no chance to record anything.
      first.process.kill("SIGKILL")
      await first.exited
      second = startWorker(env)
      await started(second)

      const state = async () =>
        (
          await query(`SELECT status, attempts, leased_by, last_status_code FROM deliveries WHERE id = ${deliveryId}`)
        )[0]
      let last: Record<string, unknown> | undefined
      await waitFor(
        "the killed worker's delivery to be taken up again and succeed",
        20_000,
        async () => {
          last = await state()
          return last?.status === "succeeded"
        },
        () =>
          `(delivery: ${JSON.stringify(last)}, arrivals of the event: ${receiver.arrivals.get(eventId) ?? 0}; ` +
          `the killed worker's claim held a lease of ${claimed[0]?.lease_seconds} s with FATURA_POSTBACK_LEASE_SECONDS=3)`
      )
      expect(receiver.arrivals.get(eventId)).toBe(2)
      expect(receiver.violations).toEqual([])
      expect(last).toEqual({ status: "succeeded", attempts: 2, leased_by: null, last_status_code: 200 })

      const attempts = await query(`
        SELECT attempt, worker, succeeded, status_code, fatura_ts(started_at) AS started_at
        FROM delivery_attempts WHERE delivery_id = ${deliveryId} ORDER BY attempt, id`)
      // The killed worker recorded nothing, or at most an unfinished first attempt; the second is the new worker's.
      const firstAttempt = attempts.filter((row) => row.attempt === 1)
      expect(firstAttempt.length).toBeLessThanOrEqual(1)
      for (const row of firstAttempt) {
        expect(row.worker).toBe(first.name)
        expect(row.succeeded).toBe(false)
      }
      const secondAttempt = attempts.filter((row) => row.attempt === 2)
      expect(secondAttempt).toHaveLength(1)
      expect(secondAttempt[0]).toMatchObject({ worker: second.name, succeeded: true, status_code: 200 })
      expect(attempts.filter((row) => Number(row.attempt) > 2)).toEqual([])
      // Taken up only once the killed worker's lease had run out.
      expect(Date.parse(String(secondAttempt[0]?.started_at))).toBeGreaterThan(leaseUntil)
    } finally {
      await stop(first)
      if (second !== undefined) await stop(second)
      await receiver.stop()
    }
  }, 240_000)
})
