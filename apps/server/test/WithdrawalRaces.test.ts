// SPEC 13.3 and 4.4 under concurrency: withdrawals that together ask for more than the balance holds never take it
// below zero (exactly those that fit succeed); withdrawals racing refunds of the same balance leave it equal to the sum
// of its entries, every success in it; and a cancel racing the sweep that hands the withdrawal to the rail has exactly
// one winner: canceled and never handed over, with its money back, or handed over and the cancel refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, statusCounts, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"
import {
  available,
  aWithdrawingCompany,
  cancel,
  getWithdrawal,
  ledgerAvailable,
  listWithdrawals,
  pixNet,
  secondsAfter,
  sweepAllAt,
  sweepNow,
  withdraw,
  withdrawalEntries,
  withdrawalEvents,
  withdrawalFee
} from "./support/Withdrawals.js"

const delay = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

describe.each(testDatabases)("withdrawal races on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  /** The company's withdrawals as stored: how many, and what they drew with their fees. */
  const stored = async (companyId: number) => {
    const [row] = await app.query(
      `SELECT count(*)::int AS count, coalesce(sum(amount + fee), 0)::int AS drawn
       FROM withdrawals WHERE company_id = ${companyId}`
    )
    return row
  }

  it("30 concurrent withdrawals asking for more than the balance: exactly those that fit succeed", async () => {
    const { key, companyId } = await aWithdrawingCompany(app, { sales: [10_000, 10_000, 10_000] })
    const before = 3 * pixNet(10_000)
    expect(before).toBe(29_403)
    expect(await available(app, key)).toBe(before)
    // Each draws 20,00 with its fee: 30 of them ask for 600,00; 294,03 covers 14 of them.
    const amount = 2_000 - withdrawalFee
    const fits = Math.floor(before / 2_000)
    expect(fits).toBe(14)

    const replies = await Promise.all(Array.from({ length: 30 }, () => withdraw(app, key, { amount })))

    expect(statusCounts(replies)).toEqual({ "201": fits, "422 insufficient_balance": 30 - fits })
    const succeeded = replies.filter((reply) => reply.status === 201).map((reply) => reply.body)
    for (const withdrawal of succeeded) {
      expect(withdrawal).toMatchObject({ amount, fee: withdrawalFee, status: "pending" })
      expect(withdrawal.sources).toEqual([{ balance: "pix", amount: 2_000 }])
    }
    const after = await available(app, key)
    expect(after).toBe(before - fits * 2_000)
    expect(after).toBe(1_403)
    expect(await ledgerAvailable(app, companyId)).toBe(after)

    const listed = await listWithdrawals(app, key, "?limit=100")
    expect(listed.data.map((withdrawal) => withdrawal.id).sort()).toEqual(succeeded.map(({ id }) => id).sort())
    expect(await stored(companyId)).toEqual({ count: fits, drawn: fits * 2_000 })
    const entries = await withdrawalEntries(app, key)
    expect(entries.filter(([type]) => type === "withdrawal_fee")).toHaveLength(fits)
    expect(entries.filter(([type]) => type === "withdrawal")).toHaveLength(fits)
    expect(entries.reduce((sum, [, , cents]) => sum + Number(cents), 0)).toBe(fits * 2_000)
    expect((await withdrawalEvents(app, key)).map((event) => event.type)).toEqual(
      Array.from({ length: fits }, () => "withdrawal.created")
    )
  })

  it("withdrawals racing refunds of pix: the balance is the sum of its entries, every success in it", async () => {
    const { key, companyId, invoices } = await aWithdrawingCompany(app, { sales: Array(6).fill(10_000) })
    const before = 6 * pixNet(10_000)
    expect(await available(app, key)).toBe(before)
    // Six full refunds of 100,00 and twelve withdrawals of 50,00 with their fees ask for 1 200,00 of 588,06.
    const asked = [
      ...invoices.map((invoice) => ({ refund: invoice.secureId as string })),
      ...Array.from({ length: 12 }, () => ({ refund: null }))
    ]
    const shuffled = asked.map((_, n) => asked[(n * 7) % asked.length]!)
    const replies = await Promise.all(
      shuffled.map(({ refund }) =>
        refund === null
          ? withdraw(app, key, { amount: 5_000 - withdrawalFee })
          : app.request("POST", "/api/v2/invoices/refund", { key, body: { id: refund, reason: "race" } })
      )
    )

    const outcomes = shuffled.map(({ refund }, n) => ({ refund, reply: replies[n]! }))
    for (const { reply } of outcomes) {
      if (reply.status !== 201) expect([reply.status, reply.body.code]).toEqual([422, "insufficient_balance"])
    }
    const refunded = outcomes.filter(({ refund, reply }) => refund !== null && reply.status === 201)
    const withdrawn = outcomes.filter(({ refund, reply }) => refund === null && reply.status === 201)
    const after = await available(app, key)
    expect(after).toBeGreaterThanOrEqual(0)
    expect(after).toBe(before - refunded.length * 10_000 - withdrawn.length * 5_000)
    expect(await ledgerAvailable(app, companyId)).toBe(after)
    // Nothing ever came back during the race, so a refusal saw less than it asked for, and so is there now.
    if (refunded.length < 6) expect(after).toBeLessThan(10_000)
    expect(withdrawn.length).toBeLessThan(12)
    expect(after).toBeLessThan(5_000)

    // Every refund that succeeded refunded its invoice; every one refused left it paid.
    for (const { refund, reply } of outcomes) {
      if (refund === null) continue
      const invoice = (await app.request("GET", `/api/v2/invoices?id=${refund}`, { key })).body
      expect([invoice.status, invoice.refundedAmount]).toEqual(
        reply.status === 201 ? ["refunded", 10_000] : ["paid", 0]
      )
    }
    const [refunds] = await app.query(
      `SELECT count(*)::int AS count FROM ledger_entries WHERE company_id = ${companyId} AND type = 'refund'`
    )
    expect(refunds).toEqual({ count: refunded.length })
    // Every withdrawal that succeeded is listed, and stored with what it drew; no other.
    const listed = await listWithdrawals(app, key, "?limit=100")
    expect(listed.data.map(({ id }) => id).sort()).toEqual(withdrawn.map(({ reply }) => reply.body.id).sort())
    expect(await stored(companyId)).toEqual({ count: withdrawn.length, drawn: withdrawn.length * 5_000 })
  })

  it("10 concurrent repeats of one withdrawal under one Idempotency-Key: one withdrawal, debited once", async () => {
    const { key, companyId } = await aWithdrawingCompany(app)
    const repeat = () =>
      app.request("POST", "/api/v2/withdrawals", {
        key,
        body: { amount: 1_000 },
        headers: { "idempotency-key": "saque-unico" }
      })
    const replies = await Promise.all(Array.from({ length: 10 }, repeat))
    // Each is the first, its replay, or told that the first is still running.
    for (const reply of replies) {
      if (reply.status !== 201) expect([reply.status, reply.body.code]).toEqual([409, "idempotency_in_progress"])
    }
    const answered = replies.filter((reply) => reply.status === 201)
    expect(answered.filter((reply) => reply.headers.get("idempotent-replayed") !== "true")).toHaveLength(1)
    for (const reply of answered) expect(reply.body).toEqual(answered[0]!.body)
    const later = await repeat()
    expect([later.status, later.headers.get("idempotent-replayed")]).toEqual([201, "true"])
    expect(later.body).toEqual(answered[0]!.body)
    expect(await stored(companyId)).toEqual({ count: 1, drawn: 1_367 })
    expect(await available(app, key)).toBe(pixNet(10_000) - 1_367)
    expect(await ledgerAvailable(app, companyId)).toBe(pixNet(10_000) - 1_367)
  })

  it("a cancel racing the sweep that hands the withdrawal over: exactly one of them wins, each time", async () => {
    // Nothing else pending: the sweep's batch is this test's withdrawal alone.
    await sweepAllAt(app, new Date())
    const { key, companyId } = await aWithdrawingCompany(app, { sales: [10_000, 10_000, 10_000] })
    const before = 3 * pixNet(10_000)
    const rounds = 20
    const results: Array<{ id: string; canceled: boolean }> = []
    for (let round = 0; round < rounds; round++) {
      const created = await withdraw(app, key, { amount: 1_000 - withdrawalFee })
      expect(created.status).toBe(201)
      // The sweep starts with the cancel's request, or 1 to 50 ms after it: either may come first.
      const after = [0, 1, 3, 10, 50][round % 5]!
      const [canceled] = await Promise.all([
        cancel(app, key, created.body.id),
        after === 0 ? sweepNow(app) : delay(after).then(() => sweepNow(app))
      ])
      if (canceled.status === 200) expect(canceled.body.status).toBe("canceled")
      else expect([canceled.status, canceled.body.code]).toEqual([409, "invalid_state"])
      results.push({ id: created.body.id, canceled: canceled.status === 200 })
    }

    const cancels = results.filter(({ canceled }) => canceled).length
    const sent = rounds - cancels
    // The rounds whose sweep starts with the cancel go to the sweep, those 50 ms later to the cancel: both happen.
    expect(cancels, JSON.stringify(results)).toBeGreaterThan(0)
    expect(sent, JSON.stringify(results)).toBeGreaterThan(0)
    // One story each: canceled and never handed over, or handed over (and paid, if a later round's sweep came 5 s on)
    // and never canceled.
    const events = await withdrawalEvents(app, key)
    for (const { id, canceled } of results) {
      const { status } = (await getWithdrawal(app, key, id)).body
      const story = canceled
        ? ["withdrawal.created", "withdrawal.canceled"]
        : ["withdrawal.created", "withdrawal.processing", ...(status === "paid" ? ["withdrawal.paid"] : [])]
      expect(status, id).toBe(canceled ? "canceled" : story.length === 3 ? "paid" : "processing")
      expect(
        events.filter((event) => event.data.id === id).map((event) => event.type),
        id
      ).toEqual(story)
      const [row] = await app.query(`SELECT sent_at IS NOT NULL AS sent FROM withdrawals WHERE id = '${id}'`)
      expect(row, id).toEqual({ sent: !canceled })
    }
    const reversals = (await withdrawalEntries(app, key)).filter(([type]) => type === "withdrawal_reversal")
    expect(reversals.map(([, , , , id]) => id).sort()).toEqual(
      results
        .filter(({ canceled }) => canceled)
        .map(({ id }) => id)
        .sort()
    )
    expect(await available(app, key)).toBe(before - sent * 1_000)
    expect(await ledgerAvailable(app, companyId)).toBe(before - sent * 1_000)

    // Once paid, those handed over are settled; the canceled ones the sweep never touches.
    await sweepAllAt(app, secondsAfter(new Date(), 6))
    for (const { id, canceled } of results) {
      expect((await getWithdrawal(app, key, id)).body.status, id).toBe(canceled ? "canceled" : "paid")
    }
    expect(await available(app, key)).toBe(before - sent * 1_000)
  })
})
