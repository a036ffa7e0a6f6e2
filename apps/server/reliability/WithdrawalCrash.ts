// SPEC 13.3 under SIGKILL: the process that pays withdrawals — on Postgres `fatura-worker`, not `fatura serve` — killed
// while withdrawals it handed to the sandbox's rail have no answer recorded: once right after handing them over, once
// while it asks the rail about them; then started again. Every withdrawal ends paid exactly once: one
// `withdrawal.processing` event (one handed over again as if new would have a second), one `withdrawal.paid` (one
// settled twice would have a second), its fee and amount debited once and nothing given back, and the pix balance is
// what the sales left less what the withdrawals drew. The server is killed with the worker, as a machine that stops.
import { beforeAll, describe, expect, it } from "vitest"
import { type Connection, connect, createDatabase } from "./support/Cluster.js"
import { payer } from "./support/Journal.js"
import { type Company, createCompany, fatura, type Service, serve } from "./support/Service.js"
import { type Worker, workerOn } from "./support/Worker.js"

const count = 10
const amount = 1_000
/** The default fee plan's withdrawal fee. */
const fee = 367
/** Pix sales, available at once: enough for every withdrawal, with some left over. */
const sales = [10_000, 10_000]
/** How long every withdrawal may take to be paid after the last restart, besides waiting for a look already set. */
const settleWithinSeconds = 30

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface State {
  readonly pending: number
  readonly processing: number
  /** Processing, and even the rail's first answer (`Processing`) not recorded: the next look is still markSent's. */
  readonly unanswered: number
  /** Processing, and claimed by a look that asks the rail: held for the look's lease. */
  readonly claimed: number
  readonly paid: number
  readonly other: number
  /** Seconds until the latest look due at a processing withdrawal; 0 when none is in the future. */
  readonly dueIn: number
}

export const withdrawalCrashScenario = () =>
  describe("SIGKILL of the worker between handing withdrawals to the rail and recording its answer", () => {
    let service: Service
    let worker: Worker
    let company: Company
    let database: Connection
    let salesLeft: number
    const ids: Array<string> = []
    let atFirstKill: State
    let atSecondKill: State
    let paidAfterSeconds: number

    const stateOf = async (): Promise<State> => {
      const [row] = await database.query(
        `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
                count(*) FILTER (WHERE status = 'processing')::int AS processing,
                count(*) FILTER (WHERE status = 'processing'
                                   AND next_check_at = sent_at + interval '5 seconds')::int AS unanswered,
                count(*) FILTER (WHERE status = 'processing'
                                   AND next_check_at > sent_at + interval '30 seconds')::int AS claimed,
                count(*) FILTER (WHERE status = 'paid')::int AS paid,
                count(*) FILTER (WHERE status NOT IN ('pending', 'processing', 'paid'))::int AS other,
                greatest(0, coalesce(extract(epoch FROM max(next_check_at) FILTER (WHERE status = 'processing')
                                                        - now()), 0))::float8 AS "dueIn"
         FROM withdrawals WHERE company_id = $1`,
        [company.id]
      )
      return row as unknown as State
    }

    /** Reads the withdrawals' state (every `pauseMs`, or as fast as the database answers) until `done`. */
    const pollUntil = async (what: string, done: (state: State) => boolean, ms: number, pauseMs = 0) => {
      const deadline = Date.now() + ms
      for (;;) {
        const state = await stateOf()
        if (done(state)) return state
        if (Date.now() > deadline) {
          throw new Error(`${what}: not within ${ms / 1000} s, ${JSON.stringify(state)}\n${worker.output()}`)
        }
        if (pauseMs > 0) await sleep(pauseMs)
      }
    }

    /** Starts the worker and, as it runs its first sweeps, kills it (and the server) once `window` is seen. */
    const killWhen = async (what: string, window: (state: State) => boolean) => {
      const starting = worker.start()
      starting.catch(() => undefined)
      await pollUntil(what, window, 60_000)
      await Promise.all([worker.kill(), service.kill()])
      await starting
      return stateOf()
    }

    beforeAll(async () => {
      const { url } = await createDatabase("withdrawal_crash")
      database = connect(url)
      service = await serve("withdrawal-crash", url)
      company = await createCompany(url, "Saques Crash Ltda")
      // As the CLI prints it: the bank account the withdrawals go to, one the sandbox's rail pays.
      await fatura(
        url,
        "company",
        "bank-account",
        String(company.id),
        "--bank-code",
        "341",
        "--agency",
        "0001",
        "--account",
        "12345678",
        "--digit",
        "9",
        "--type",
        "corrente"
      )
      const key = company.testKey
      for (const total of sales) {
        const created = await service.request("POST", "/api/v2/invoices", {
          key,
          body: { method: "pix", total_price_cents: total, payer }
        })
        expect(created.status, created.text).toBe(201)
        const paid = await service.request("POST", "/api/v2/sandbox/invoices/pay", {
          key,
          body: { id: created.body.secureId }
        })
        expect([paid.status, paid.body?.status], paid.text).toEqual([200, "paid"])
      }
      salesLeft = (await service.request("GET", "/api/v2/company", { key })).body.balance_pix
      expect(salesLeft).toBeGreaterThan(count * (amount + fee))

      // All asked for before the worker runs, so that its first sweep hands every one over in one transaction.
      const replies = await Promise.all(
        Array.from({ length: count }, () => service.request("POST", "/api/v2/withdrawals", { key, body: { amount } }))
      )
      for (const reply of replies) {
        expect([reply.status, reply.body?.status], reply.text).toEqual([201, "pending"])
        ids.push(reply.body.id)
      }

      worker = workerOn(url)
      // First: handed to the rail (`processing`), its payment not recorded — the rail pays 3 s after, and the sweep
      // only records that at the look 5 s after.
      atFirstKill = await killWhen("a withdrawal handed to the rail", (state) => state.processing > 0)
      await service.start()
      // Then: while a look asks the rail about them, which now says paid — or just after, if the look was quicker.
      atSecondKill = await killWhen(
        "a withdrawal asked about after the restart",
        (state) => state.claimed > 0 || state.paid > 0
      )
      await service.start()
      const restarted = Date.now()
      const starting = worker.start()
      starting.catch(() => undefined)
      // Those held by the killed look wait for its lease to run out before they are asked about again.
      await pollUntil(
        "every withdrawal paid",
        (state) => state.paid === count,
        (settleWithinSeconds + atSecondKill.dueIn) * 1_000,
        100
      )
      paidAfterSeconds = (Date.now() - restarted) / 1_000
      await starting
      // A paid withdrawal is looked at again every 5 s (for a bank that returns it): such a look, by a worker that
      // never saw it handed over, finds it paid and changes nothing.
      await sleep(6_000)
      await worker.stop()
    }, 600_000)

    it("killed the worker with withdrawals handed to the rail and their payment not recorded, twice", () => {
      console.info(
        `withdrawal crash: first kill with ${atFirstKill.processing} of ${count} processing ` +
          `(${atFirstKill.unanswered} without even the rail's first answer recorded), ${atFirstKill.pending} pending; ` +
          `second kill with ${atSecondKill.processing} processing (${atSecondKill.claimed} being asked about), ` +
          `${atSecondKill.paid} paid; all paid ${paidAfterSeconds.toFixed(1)} s after the last restart`
      )
      expect(atFirstKill.processing).toBeGreaterThan(0)
      expect([atFirstKill.paid, atFirstKill.other]).toEqual([0, 0])
      expect(atSecondKill.other).toBe(0)
    })

    it("pays every withdrawal exactly once: one processing and one paid event, the rail's payment recorded", async () => {
      const rows = await database.query(
        `SELECT w.id, w.status, w.amount::int AS amount, w.fee::int AS fee, w.rail, w.end_to_end_id, w.failure_reason,
                w.paid_at = w.sent_at + interval '3 seconds' AS "paidAsTheRailSays",
                (SELECT json_agg(e.type ORDER BY e.created_at, e.type) FROM events e
                 WHERE e.company_id = w.company_id AND e.data->>'id' = w.id) AS events,
                (SELECT json_agg(e.data) FROM events e
                 WHERE e.company_id = w.company_id AND e.data->>'id' = w.id AND e.type = 'withdrawal.paid') AS paid
         FROM withdrawals w WHERE w.company_id = $1 ORDER BY w.created_at, w.id`,
        [company.id]
      )
      expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort())
      for (const row of rows) {
        expect(row.events, `events of ${row.id}`).toEqual([
          "withdrawal.created",
          "withdrawal.processing",
          "withdrawal.paid"
        ])
        expect(
          {
            status: row.status,
            amount: row.amount,
            fee: row.fee,
            rail: row.rail,
            failure: row.failure_reason,
            paidAsTheRailSays: row.paidAsTheRailSays
          },
          `withdrawal ${row.id}`
        ).toEqual({ status: "paid", amount, fee, rail: "pix", failure: null, paidAsTheRailSays: true })
        expect(row.end_to_end_id, `withdrawal ${row.id}`).toMatch(/^E00000000\d{12}[0-9A-F]{11}$/)
        const [event] = row.paid as Array<Record<string, unknown>>
        expect([event?.status, event?.end_to_end_id, event?.rail], `withdrawal.paid of ${row.id}`).toEqual([
          "paid",
          row.end_to_end_id,
          "pix"
        ])
      }
      expect(new Set(rows.map((row) => row.end_to_end_id)).size).toBe(count)
      const listed = await service.request("GET", "/api/v2/withdrawals?status=paid&limit=100", {
        key: company.testKey
      })
      expect(listed.body.data.map((withdrawal: { id: string }) => withdrawal.id).sort()).toEqual([...ids].sort())
    })

    it("draws each withdrawal's fee and amount once and gives nothing back: the balance is the sales less them", async () => {
      const entries = await database.query(
        `SELECT w.id, (SELECT json_agg(json_build_object('type', l.type, 'direction', l.direction, 'amount', l.amount,
                                                          'balance', l.balance, 'bucket', l.bucket) ORDER BY l.id)
                       FROM ledger_entries l WHERE l.withdrawal_id = w.id) AS entries
         FROM withdrawals w WHERE w.company_id = $1`,
        [company.id]
      )
      for (const { id, entries: drawn } of entries) {
        expect(drawn, `entries of ${id}`).toEqual([
          { type: "withdrawal_fee", direction: "debit", amount: fee, balance: "pix", bucket: "available" },
          { type: "withdrawal", direction: "debit", amount, balance: "pix", bucket: "available" }
        ])
      }
      const [totals] = await database.query(
        `SELECT (SELECT pix FROM company_balances WHERE company_id = $1 AND mode = 'test')::int AS running,
                (SELECT coalesce(sum(CASE direction WHEN 'credit' THEN amount ELSE -amount END), 0)
                 FROM ledger_entries WHERE company_id = $1 AND mode = 'test' AND balance = 'pix'
                   AND bucket = 'available')::int AS summed,
                (SELECT count(*) FROM ledger_entries WHERE company_id = $1 AND withdrawal_id IS NOT NULL)::int AS drawn,
                (SELECT count(*) FROM ledger_entries
                 WHERE company_id = $1 AND type = 'withdrawal_reversal')::int AS reversals`,
        [company.id]
      )
      const left = salesLeft - count * (amount + fee)
      expect(totals).toEqual({ running: left, summed: left, drawn: 2 * count, reversals: 0 })
      const shown = await service.request("GET", "/api/v2/company", { key: company.testKey })
      expect(shown.body.balance_pix).toBe(left)
    })

    it("logs no failed sweep and no rail left unanswered", async () => {
      const complaints = worker
        .output()
        .split("\n")
        .filter((line) => /withdrawal sweep failed|payout rail did not answer/.test(line))
      expect(complaints).toEqual([])
      await service.stop()
      await database.close()
    })
  })
