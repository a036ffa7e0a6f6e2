// SPEC 9 and 11.2 under SIGKILL: 1 000 creates with Idempotency-Keys from 100 concurrent clients while the server
// is killed five times and started again. Whatever a client was told (2xx) is there, identical; every invoice is
// whole (timeline, events, ledger); the requests left unanswered, repeated with their keys, make no duplicates.
import { beforeAll, describe, expect, it } from "vitest"
import { type Connection, connect, createDatabase } from "./support/Cluster.js"
import { boletoPayer, cardField, testCards } from "./support/Journal.js"
import { type Company, createCompany, type Reply, type Service, serve } from "./support/Service.js"

const total = 1_000
const clients = 100
/** The server is killed when this many creates have had their outcome (an answer or a lost connection). */
const killsAt = [150, 300, 450, 600, 750]

const bodyOf = (n: number) => {
  // One payer with an address for every method, so that later invoices never change what the first one showed.
  const common = { total_price_cents: 1_000 + n, external_ref: `crash-${n}`, payer: boletoPayer }
  switch (n % 4) {
    case 0:
      return { ...common, method: "pix" }
    case 1:
      return { ...common, method: "bank_slip" }
    case 2:
      return { ...common, method: "credit_card", card: cardField(testCards.approved) }
    default:
      return { ...common, method: "credit_card", card: cardField(testCards.declined), installments: 2 }
  }
}

const errorCode = (error: unknown): string | undefined => {
  const cause = (error as { cause?: { code?: string } }).cause
  return cause?.code
}

/**
 * Where two Invoice transactions differ, by path; leaving out what legitimately moves on after the answer: the
 * company's running totals and when the payer's record was last written (each invoice for the payer writes it).
 */
const differences = (acknowledged: unknown, read: unknown, path = ""): Array<string> => {
  if (/^\.(enterprise|client\.updated_at)$/.test(path)) return []
  if (typeof acknowledged === "object" && acknowledged !== null && typeof read === "object" && read !== null) {
    const keys = new Set([...Object.keys(acknowledged), ...Object.keys(read)])
    return [...keys].flatMap((key) =>
      differences(
        (acknowledged as Record<string, unknown>)[key],
        (read as Record<string, unknown>)[key],
        `${path}.${key}`
      )
    )
  }
  return JSON.stringify(acknowledged) === JSON.stringify(read)
    ? []
    : [`${path}: ${JSON.stringify(acknowledged)} acknowledged, ${JSON.stringify(read)} read`]
}

export const crashScenario = () =>
  describe("SIGKILL five times during 1 000 concurrent creates", () => {
    let service: Service
    let company: Company
    let database: Connection
    const answered = new Map<number, Reply>()
    const unanswered = new Set<number>()
    let kills = 0

    const create = (n: number) =>
      service.request("POST", "/api/v2/invoices", {
        key: company.testKey,
        body: bodyOf(n),
        headers: { "idempotency-key": `crash-${n}` },
        timeoutMs: 60_000
      })

    beforeAll(async () => {
      const { url } = await createDatabase("crash")
      company = await createCompany(url, "Padaria Crash Ltda")
      database = connect(url)
      service = await serve("crash", url, { FATURA_RATE_LIMIT: "1000000" })

      let next = 0
      let restarting: Promise<void> | undefined
      const killAndRestart = async () => {
        kills += 1
        await service.kill()
        await service.start()
      }
      const client = async () => {
        while (next < total) {
          const n = next++
          for (;;) {
            if (restarting !== undefined) await restarting
            try {
              answered.set(n, await create(n))
              break
            } catch (error) {
              // Refused: the request never reached a server (it is down) — send it again once one is up.
              if (errorCode(error) === "ECONNREFUSED") {
                await new Promise((resolve) => setTimeout(resolve, 50))
                continue
              }
              unanswered.add(n)
              break
            }
          }
          if (
            kills < killsAt.length &&
            answered.size + unanswered.size >= killsAt[kills]! &&
            restarting === undefined
          ) {
            restarting = killAndRestart().finally(() => {
              restarting = undefined
            })
          }
        }
      }
      await Promise.all(Array.from({ length: clients }, client))
      if (restarting !== undefined) await restarting
    }, 600_000)

    it("killed the server five times with creates in flight", () => {
      console.info(`crash: ${kills} kills, ${unanswered.size} of ${total} creates cut off, ${answered.size} answered`)
      expect(kills).toBe(5)
      expect(unanswered.size, "requests cut off by the kills").toBeGreaterThan(0)
      expect(answered.size + unanswered.size).toBe(total)
      // Every answer the clients got was a success: a kill is a lost connection, never an error status.
      expect([...answered.values()].filter((reply) => reply.status !== 201).map((reply) => reply.text)).toEqual([])
    })

    it("repeating each unanswered request with its key creates it exactly once", async () => {
      for (const n of unanswered) {
        let reply = await create(n)
        // A repeat is told the first attempt is in progress until that attempt's hold on its key runs out: a create
        // calls a provider, so it holds its key by a lease (`idempotencyLeaseSeconds`) rather than by a transaction
        // the kill ended.
        const deadline = Date.now() + 90_000
        while (reply.status === 409 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200))
          reply = await create(n)
        }
        expect(reply.status, `repeat of crash-${n}: ${reply.text}`).toBe(201)
        answered.set(n, reply)
      }
      const counts = await database.query(
        "SELECT external_ref, count(*)::int AS n FROM invoices WHERE company_id = $1 GROUP BY external_ref",
        [company.id]
      )
      expect(counts.length).toBe(total)
      expect(counts.filter((row) => row.n !== 1)).toEqual([])
    })

    it("repeating an answered request replays its answer", async () => {
      for (let n = 0; n < total; n += 50) {
        const first = answered.get(n)!
        const repeat = await create(n)
        expect(repeat.status).toBe(first.status)
        expect(repeat.headers.get("idempotent-replayed")).toBe("true")
        expect(repeat.body).toEqual(first.body)
      }
    })

    it("reads back every acknowledged invoice with the fields it was acknowledged with", async () => {
      for (const [n, reply] of answered) {
        const found = await service.request("GET", `/api/v2/invoices?id=${reply.body.secureId}`, {
          key: company.testKey
        })
        expect(found.status, `crash-${n}`).toBe(200)
        expect(differences(reply.body, found.body), `crash-${n}`).toEqual([])
      }
    })

    it("keeps every invoice whole: its timeline, events, ledger and receivables agree with its status", async () => {
      const invoices = await database.query(
        `SELECT i.id, i.status, i.method, i.amount::bigint AS amount, (i.fee->>'estimatedFee')::bigint AS fee,
                (SELECT json_agg(t.event ORDER BY t.event) FROM invoice_timeline t WHERE t.invoice_id = i.id) AS timeline,
                (SELECT json_agg(t.status ORDER BY t.id) FROM invoice_timeline t WHERE t.invoice_id = i.id) AS statuses,
                (SELECT json_agg(e.type ORDER BY e.type) FROM events e WHERE e.invoice_id = i.id) AS events,
                (SELECT json_agg(json_build_object('type', l.type, 'direction', l.direction, 'amount', l.amount)
                   ORDER BY l.id) FROM ledger_entries l WHERE l.invoice_id = i.id) AS ledger,
                (SELECT coalesce(sum(r.net_amount), 0)::bigint FROM receivables r WHERE r.invoice_id = i.id) AS receivable
         FROM invoices i WHERE i.company_id = $1`,
        [company.id]
      )
      expect(invoices.length).toBe(total)
      for (const invoice of invoices) {
        const statuses = invoice.statuses as Array<string>
        expect(invoice.events, `invoice ${invoice.id}`).toEqual(invoice.timeline)
        expect(statuses.at(-1), `invoice ${invoice.id}`).toBe(invoice.status)
        const expected = {
          pix: ["pending"],
          bank_slip: ["pending"],
          credit_card: Number(invoice.amount) % 4 === 2 ? ["pending", "paid"] : ["pending", "refused"]
        }[invoice.method as string]
        expect(statuses, `invoice ${invoice.id}`).toEqual(expected)
        expect(invoice.ledger, `invoice ${invoice.id}`).toEqual(
          invoice.status === "paid"
            ? [
                { type: "payment", direction: "credit", amount: Number(invoice.amount) },
                { type: "fee", direction: "debit", amount: Number(invoice.fee) }
              ]
            : null
        )
        // A payment's receivables are written with it, or not at all.
        expect(Number(invoice.receivable), `invoice ${invoice.id}`).toBe(
          invoice.status === "paid" ? Number(invoice.amount) - Number(invoice.fee) : 0
        )
      }
      const [balance] = await database.query(
        `SELECT b.card::bigint AS available, b.waiting_card::bigint AS waiting,
                (SELECT coalesce(sum(CASE direction WHEN 'credit' THEN amount ELSE -amount END), 0)::bigint
                 FROM ledger_entries WHERE company_id = $1 AND mode = 'test' AND balance = 'card'
                   AND bucket = 'available') AS summed_available,
                (SELECT coalesce(sum(CASE direction WHEN 'credit' THEN amount ELSE -amount END), 0)::bigint
                 FROM ledger_entries WHERE company_id = $1 AND mode = 'test' AND balance = 'card'
                   AND bucket = 'waiting') AS summed_waiting
         FROM company_balances b WHERE b.company_id = $1 AND b.mode = 'test'`,
        [company.id]
      )
      expect([balance?.available, balance?.waiting]).toEqual([balance?.summed_available, balance?.summed_waiting])
      // Every card sale waits for its installment's day: none of it is available yet.
      expect(balance?.available).toBe(0n)
    })

    it("leaves no key held by a request that died", async () => {
      const held = await database.query(
        "SELECT key FROM idempotency_keys WHERE company_id = $1 AND response_status IS NULL",
        [company.id]
      )
      expect(held).toEqual([])
      await service.stop()
      await database.close()
    })
  })
