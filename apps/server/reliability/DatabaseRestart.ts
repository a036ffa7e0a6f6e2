// SPEC 3 and 11.1 while the database goes away: the service's Postgres cluster (one of the suite's own, so that
// nothing else on the machine loses its database) is stopped under load and started again. Meanwhile every request
// is answered, quickly, with 503 `unavailable` (never a 500, never a hang), and within 10 s of the database's return
// the same server process succeeds again; nothing it acknowledged is lost.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Cluster, type Connection, connect, createDatabase, privateCluster } from "./support/Cluster.js"
import { payer } from "./support/Journal.js"
import { type Company, createCompany, type Service, serve } from "./support/Service.js"

/** Longer than the service ever needs to answer; a request still unanswered then counts as a hang. */
const clientTimeoutMs = 10_000
const outageMs = 6_000
const afterReturnMs = 14_000

interface Outcome {
  readonly kind: "create" | "search" | "ready"
  readonly key?: string
  readonly startedAt: number
  readonly endedAt: number
  readonly status: number | "hang" | "no answer"
  readonly code?: string
  readonly secureId?: string
}

export const databaseRestartScenario = () =>
  describe("the Postgres cluster stopped and started under load", () => {
    let postgres: Cluster
    let service: Service
    let company: Company
    let database: Connection
    const outcomes: Array<Outcome> = []
    let stopRequestedAt = 0
    let stoppedAt = 0
    let startRequestedAt = 0
    let returnedAt = 0

    beforeAll(async () => {
      postgres = await privateCluster()
      const { url } = await createDatabase("outage", postgres.adminUrl)
      database = connect(url)
      company = await createCompany(url, "Mercado Apagão Ltda")
      service = await serve("outage", url, { FATURA_RATE_LIMIT: "1000000" })
      const seeded = await service.request("POST", "/api/v2/invoices", {
        key: company.testKey,
        body: { method: "pix", total_price_cents: 4_200, payer }
      })
      expect(seeded.status).toBe(201)

      let running = true
      let sequence = 0
      const call = async (kind: Outcome["kind"]) => {
        const startedAt = Date.now()
        const key = kind === "create" ? `outage-${sequence++}` : undefined
        const request =
          kind === "create"
            ? service.request("POST", "/api/v2/invoices", {
                key: company.testKey,
                body: { method: "pix", total_price_cents: 5_000, payer, external_ref: key },
                headers: { "idempotency-key": key! },
                timeoutMs: clientTimeoutMs
              })
            : kind === "search"
              ? service.request("GET", `/api/v2/invoices?id=${seeded.body.secureId}`, {
                  key: company.testKey,
                  timeoutMs: clientTimeoutMs
                })
              : service.request("GET", "/ready", { timeoutMs: clientTimeoutMs })
        const outcome = await request.then(
          (reply) => ({ status: reply.status, code: reply.body?.code, secureId: reply.body?.secureId }),
          (error: Error) => ({ status: error.name === "TimeoutError" ? ("hang" as const) : ("no answer" as const) })
        )
        outcomes.push({ kind, startedAt, endedAt: Date.now(), ...(key === undefined ? {} : { key }), ...outcome })
      }
      const client = async (kind: Outcome["kind"]) => {
        while (running) {
          await call(kind)
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      }
      const load = [client("create"), client("create"), client("search"), client("search"), client("ready")]

      await new Promise((resolve) => setTimeout(resolve, 2_000))
      stopRequestedAt = Date.now()
      await postgres.stop()
      stoppedAt = Date.now()
      await new Promise((resolve) => setTimeout(resolve, outageMs))
      startRequestedAt = Date.now()
      await postgres.start()
      returnedAt = Date.now()
      await new Promise((resolve) => setTimeout(resolve, afterReturnMs))
      running = false
      await Promise.all(load)
    }, 120_000)

    afterAll(async () => {
      // Whatever happened above, the cluster runs again for the card-data scan, which reads its database.
      await postgres?.start()
      await service?.stop()
      await database?.close()
    })

    it("never answered 500, never hung, never dropped a connection", () => {
      const bad = outcomes.filter(
        (outcome) =>
          typeof outcome.status !== "number" ||
          (outcome.status >= 500 && !(outcome.status === 503 && outcome.code === "unavailable"))
      )
      expect(bad).toEqual([])
      expect(service.isRunning()).toBe(true)
    })

    it("answered 503 unavailable while the database was down, and quickly", () => {
      const duringOutage = outcomes.filter(
        (outcome) => outcome.startedAt >= stoppedAt && outcome.endedAt <= startRequestedAt
      )
      console.info(
        `outage: ${duringOutage.length} requests while down, cluster stop took ${stoppedAt - stopRequestedAt} ms, start ${returnedAt - startRequestedAt} ms`
      )
      expect(duringOutage.length).toBeGreaterThan(10)
      for (const kind of ["create", "search", "ready"] as const) {
        const ofKind = duringOutage.filter((outcome) => outcome.kind === kind)
        expect(ofKind.length, kind).toBeGreaterThan(0)
        expect(
          ofKind.filter((outcome) => outcome.status !== 503 || (kind !== "ready" && outcome.code !== "unavailable")),
          kind
        ).toEqual([])
      }
      const slowest = Math.max(...duringOutage.map((outcome) => outcome.endedAt - outcome.startedAt))
      expect(slowest).toBeLessThan(clientTimeoutMs)
    })

    it("succeeds again within 10 s of the database's return, without a restart", () => {
      const afterReturn = outcomes.filter((outcome) => outcome.startedAt >= returnedAt)
      for (const kind of ["create", "search", "ready"] as const) {
        const firstSuccess = afterReturn.find(
          (outcome) => outcome.kind === kind && typeof outcome.status === "number" && outcome.status < 300
        )
        expect(firstSuccess, `a ${kind} succeeded after the return`).toBeDefined()
        expect(firstSuccess!.endedAt - returnedAt, kind).toBeLessThanOrEqual(10_000)
      }
      const late = afterReturn.filter((outcome) => outcome.startedAt >= returnedAt + 10_000)
      expect(late.length).toBeGreaterThan(0)
      expect(late.filter((outcome) => outcome.status !== (outcome.kind === "create" ? 201 : 200))).toEqual([])
    })

    it("lost nothing: every acknowledged create is there, every refused one runs once when repeated", async () => {
      const creates = outcomes.filter((outcome) => outcome.kind === "create")
      for (const outcome of creates) {
        const send = () =>
          service.request("POST", "/api/v2/invoices", {
            key: company.testKey,
            body: { method: "pix", total_price_cents: 5_000, payer, external_ref: outcome.key },
            headers: { "idempotency-key": outcome.key! }
          })
        let repeat = await send()
        // A create calls a provider, so it holds its key by a lease: one whose end could not be written while the
        // database was down keeps the key until the lease (`idempotencyLeaseSeconds`) runs out, and the repeat is
        // told it is in progress.
        const deadline = Date.now() + 90_000
        while (repeat.status === 409 && repeat.body?.code === "idempotency_in_progress" && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 500))
          repeat = await send()
        }
        expect(repeat.status, outcome.key).toBe(201)
        if (outcome.status === 201) {
          expect(repeat.headers.get("idempotent-replayed"), outcome.key).toBe("true")
          expect(repeat.body.secureId).toBe(outcome.secureId)
        }
      }
      const counts = await database.query(
        "SELECT external_ref, count(*)::int AS n FROM invoices WHERE company_id = $1 AND external_ref IS NOT NULL GROUP BY 1",
        [company.id]
      )
      const references = new Map(counts.map((row) => [String(row.external_ref), Number(row.n)]))
      expect([...references.entries()].filter(([, count]) => count !== 1)).toEqual([])
      for (const outcome of creates) expect(references.get(outcome.key!), outcome.key).toBe(1)
    })
  })
