// What the tests of withdrawals (SPEC 13.3) share: a company with a bank account, set as the CLI sets it, and pix money
// available at once; the requests of the withdrawal routes; its balances next to the sums of its ledger entries; and
// the sweep that hands withdrawals to the sandbox rail, run as if it were a given instant (the rail answers by the
// same clock), so that a test waits for no real second.
import { Companies, WithdrawalSweep } from "@fatura/application"
import type { Company } from "@fatura/domain"
import { Clock, Duration, Effect } from "effect"
import { expect } from "vitest"
import { pixRequest, type TestApp } from "./TestApp.js"

export type BalanceKind = "pix" | "card" | "bank_slip"

/** The default fee plan's `withdrawal_fee`. */
export const withdrawalFee = 367

/** What a paid pix sale of `amount` leaves available: its fee is 1.99 %, rounded. */
export const pixNet = (amount: number) => amount - Math.round(amount * 0.0199)

/** A contract timestamp (microseconds) of a Date. */
export const timestampOf = (at: Date) => at.toISOString().replace(/Z$/, "000Z")

/** The account the withdrawals of a company go to: Itaú's, ending as `account` does (SPEC 13.3's test accounts). */
export const setBankAccount = (app: TestApp, companyId: Company.CompanyId, account = "12345678", bankCode = "341") =>
  app.run(
    Effect.flatMap(Companies, (companies) =>
      companies.setBankAccount(companyId, { bankCode, agency: "0001", account, digit: "9", type: "corrente" })
    )
  )

/** A pix invoice of `amount`, paid through the sandbox: its money is available at once. */
export const sellPix = async (app: TestApp, key: string, amount: number) => {
  const created = await app.request("POST", "/api/v2/invoices", {
    key,
    body: pixRequest({ total_price_cents: amount })
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const paid = await app.request("POST", "/api/v2/sandbox/invoices/pay", { key, body: { id: created.body.secureId } })
  expect([paid.status, paid.body.status]).toEqual([200, "paid"])
  return paid.body
}

/** A fresh company (balances at zero) with a bank account unless `account` is null, and a paid pix sale of each of `sales`. */
export const aWithdrawingCompany = async (
  app: TestApp,
  options: { readonly sales?: ReadonlyArray<number>; readonly account?: string | null } = {}
) => {
  const registered = await app.registerCompany({ name: "Loja Saque Ltda" })
  if (options.account !== null) await setBankAccount(app, registered.company.id, options.account ?? "12345678")
  const invoices = []
  for (const amount of options.sales ?? [10_000]) invoices.push(await sellPix(app, registered.secretKey, amount))
  return { ...registered, key: registered.secretKey, companyId: registered.company.id, invoices }
}

export const withdraw = (app: TestApp, key: string, body: Record<string, unknown>) =>
  app.request("POST", "/api/v2/withdrawals", { key, body })

export const cancel = (app: TestApp, key: string, id: string) =>
  app.request("POST", `/api/v2/withdrawals/${id}/cancel`, { key })

export const getWithdrawal = (app: TestApp, key: string, id: string) =>
  app.request("GET", `/api/v2/withdrawals/${id}`, { key })

export const listWithdrawals = async (app: TestApp, key: string, query = "") => {
  const reply = await app.request("GET", `/api/v2/withdrawals${query}`, { key })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body as { data: Array<any>; has_more: boolean; next_cursor: string | null }
}

/** Company Infos' available balance of `kind`. */
export const available = async (app: TestApp, key: string, kind: BalanceKind = "pix"): Promise<number> => {
  const reply = await app.request("GET", "/api/v2/company", { key })
  expect(reply.status).toBe(200)
  return reply.body[`balance_${kind}`]
}

/** The sum of the company's available entries of `kind`, credits minus debits, as stored. */
export const ledgerAvailable = async (app: TestApp, companyId: Company.CompanyId, kind: BalanceKind = "pix") => {
  const [row] = await app.query(
    `SELECT coalesce(sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END), 0)::int AS total
     FROM ledger_entries WHERE company_id = ${Number(companyId)} AND mode = 'test' AND balance = '${kind}'
     AND bucket = 'available'`
  )
  return Number(row?.total)
}

/** The statement's entries of withdrawals, newest first: type, direction, amount, balance, withdrawal. */
export const withdrawalEntries = async (app: TestApp, key: string) => {
  const reply = await app.request("GET", "/api/v2/balance/operations?limit=100", { key })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return (reply.body.data as Array<Record<string, unknown>>)
    .filter((entry) => entry.withdrawal_id !== null)
    .map((entry) => [entry.type, entry.direction, entry.amount, entry.balance, entry.withdrawal_id])
}

/** The company's withdrawal events, oldest first, as `GET /api/v2/events` lists them: type and the withdrawal's id. */
export const withdrawalEvents = async (app: TestApp, key: string) => {
  const reply = await app.request("GET", "/api/v2/events?limit=100", { key })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return (reply.body.data as Array<{ type: string; data: { id: string; status: string } }>)
    .filter((event) => event.type.startsWith("withdrawal."))
    .reverse()
}

/**
 * A clock stopped at `at`: what the sweep and the sandbox rail read as now. It still sleeps for real, so that a time
 * limit on a call (the sweep's on the rail) runs out only when that time has passed.
 */
const clockAt = (at: Date): Clock.Clock => {
  const millis = at.getTime()
  const nanos = BigInt(millis) * 1_000_000n
  return {
    currentTimeMillisUnsafe: () => millis,
    currentTimeMillis: Effect.succeed(millis),
    currentTimeNanosUnsafe: () => nanos,
    currentTimeNanos: Effect.succeed(nanos),
    monotonicTimeNanosUnsafe: () => nanos,
    monotonicTimeNanos: Effect.succeed(nanos),
    sleep: (duration) =>
      Effect.promise(() => new Promise((resolve) => setTimeout(resolve, Duration.toMillis(duration))))
  }
}

const sweepOnce = (app: TestApp, at?: Date) => {
  const sweep = Effect.flatMap(WithdrawalSweep, (sweeper) => sweeper.sweep)
  return app.run(at === undefined ? sweep : Effect.provideService(sweep, Clock.Clock, clockAt(at)))
}

/** One sweep, by the real clock: what the embedded server runs every second. */
export const sweepNow = (app: TestApp) => sweepOnce(app)

/**
 * Sweeps as if it were `at` until nothing more moves: every pending withdrawal (of any company) is handed to the rail,
 * and every one due a look by then is settled as the rail answers at `at`.
 */
export const sweepAllAt = async (app: TestApp, at: Date) => {
  let moved = 0
  for (let round = 0; round < 50; round++) {
    const count = await sweepOnce(app, at)
    if (count === 0) return moved
    moved += count
  }
  throw new Error("the withdrawal sweep never came to rest")
}

export const secondsAfter = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000)
