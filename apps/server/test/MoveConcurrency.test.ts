// SPEC 4.7, 4.9, 7.1, 7.4, 8.3 under concurrency: moves of one pending invoice racing each other — sandbox pay
// against sandbox expire, a payer's card payment against an expiry, the expiry sweep against sandbox pay. Exactly
// one move wins, every other call is 409 `invalid_state`, none is a 500 (a deadlock between the company lock of
// money moves and the invoice lock of expiries used to be one), and the winner's records are all there is.
// PGlite serves every transaction on its single connection, one at a time: only Postgres can deadlock.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  cardRequest,
  pixRequest,
  type RequestOptions,
  startApp,
  statusCounts,
  type TestApp,
  testCard
} from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

describe.each(testDatabases)("concurrent moves of one invoice on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  const merchant = async () => {
    const { secretKey } = await app.registerCompany({ name: "Loja Corrida Ltda" })
    const create = async (body: unknown) => {
      const reply = await app.request("POST", "/api/v2/invoices", { key: secretKey, body })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      return reply.body
    }
    const sandbox = (action: "pay" | "expire", id: string, options: RequestOptions = {}) =>
      app.request("POST", `/api/v2/sandbox/invoices/${action}`, { key: secretKey, body: { id }, ...options })
    const payAsPayer = (invoice: { secureId: string; invoice: { token_checkout: string } }) =>
      app.request("POST", `/api/v2/public/invoices/${invoice.secureId}/pay?token=${invoice.invoice.token_checkout}`, {
        body: { card: testCard }
      })
    const get = async (id: string) => {
      const reply = await app.request("GET", `/api/v2/invoices?id=${id}`, { key: secretKey })
      expect(reply.status).toBe(200)
      return reply.body
    }
    return { key: secretKey, create, sandbox, payAsPayer, get }
  }

  /** What is stored of an invoice's moves: its status, timeline, ledger entries and status events. */
  const stored = async (invoiceId: number) => {
    const [invoice] = await app.query(`SELECT status FROM invoices WHERE id = ${invoiceId}`)
    const timeline = await app.query(`SELECT status FROM invoice_timeline WHERE invoice_id = ${invoiceId} ORDER BY id`)
    const ledger = await app.query(
      `SELECT type, direction, amount::int AS amount FROM ledger_entries WHERE invoice_id = ${invoiceId} ORDER BY id`
    )
    const events = await app.query(`SELECT type FROM events WHERE invoice_id = ${invoiceId} ORDER BY created_at, type`)
    return {
      status: invoice?.status,
      timeline: timeline.map((row) => row.status),
      ledger,
      events: events.map((row) => row.type)
    }
  }

  /** The one move that won, written once: its status, its timeline entry, its event and, if paid, its money. */
  const expectOnlyTheWinner = async (
    invoice: { id: string; amount: number; fee: { estimatedFee: number } },
    winner: "paid" | "expired"
  ) => {
    expect(await stored(Number(invoice.id))).toEqual({
      status: winner,
      timeline: ["pending", winner],
      ledger:
        winner === "paid"
          ? [
              { type: "payment", direction: "credit", amount: invoice.amount },
              { type: "fee", direction: "debit", amount: invoice.fee.estimatedFee }
            ]
          : [],
      events: ["invoice.created", `invoice.${winner}`]
    })
  }

  it("30 concurrent sandbox pay and expire calls on one pending pix invoice: one wins, 29 are 409", async () => {
    const { create, sandbox, get } = await merchant()
    // A few invoices, one after another, so that the race is run more than once.
    for (let round = 0; round < 6; round++) {
      const invoice = await create(pixRequest({ total_price_cents: 10_000 + round }))
      const actions = Array.from({ length: 30 }, (_, n) => (n % 2 === 0 ? "pay" : "expire") as "pay" | "expire")
      const replies = await Promise.all(actions.map((action) => sandbox(action, invoice.secureId)))

      expect(statusCounts(replies)).toEqual({ "200": 1, "409 invalid_state": 29 })
      const winner = replies.findIndex((reply) => reply.status === 200)
      const status = actions[winner] === "pay" ? "paid" : "expired"
      expect(replies[winner]?.body.status).toBe(status)
      expect((await get(invoice.secureId)).status).toBe(status)
      await expectOnlyTheWinner(invoice, status)
    }
  })

  it("with an Idempotency-Key on every call, still one wins and the others are 409", async () => {
    const { create, sandbox } = await merchant()
    for (let round = 0; round < 4; round++) {
      const invoice = await create(pixRequest({ total_price_cents: 20_000 + round }))
      const actions = Array.from({ length: 30 }, (_, n) => (n % 2 === 0 ? "expire" : "pay") as "pay" | "expire")
      const replies = await Promise.all(
        actions.map((action, n) =>
          sandbox(action, invoice.secureId, { headers: { "idempotency-key": `race-${round}-${n}` } })
        )
      )

      expect(statusCounts(replies)).toEqual({ "200": 1, "409 invalid_state": 29 })
      const winner = replies.findIndex((reply) => reply.status === 200)
      await expectOnlyTheWinner(invoice, actions[winner] === "pay" ? "paid" : "expired")
    }
  })

  it("a payer's card payment racing sandbox expiries of a pending card invoice: one wins, the others are 409", async () => {
    const { create, sandbox, payAsPayer, get } = await merchant()
    for (let round = 0; round < 6; round++) {
      // No card data: the invoice waits, pending, for its payer (SPEC 4.7).
      const invoice = await create(pixRequest({ method: "credit_card", total_price_cents: 30_000 + round }))
      expect(invoice.status).toBe("pending")
      const calls = Array.from({ length: 10 }, (_, n) => (n % 2 === 0 ? "pay" : "expire") as "pay" | "expire")
      const replies = await Promise.all(
        calls.map((call) => (call === "pay" ? payAsPayer(invoice) : sandbox("expire", invoice.secureId)))
      )

      expect(statusCounts(replies)).toEqual({ "200": 1, "409 invalid_state": 9 })
      const winner = replies.findIndex((reply) => reply.status === 200)
      const status = calls[winner] === "pay" ? "paid" : "expired"
      expect(replies[winner]?.body.status).toBe(status)
      const after = await get(invoice.secureId)
      expect(after.status).toBe(status)
      await expectOnlyTheWinner(after, status)
    }
  })

  it("a payer's card payment racing the creation of an invoice charged with the same card: both succeed", async () => {
    // Both write the payer's card reference; the creation also refers to the company, which the payment locks.
    const { key, create, payAsPayer, get } = await merchant()
    for (let round = 0; round < 12; round++) {
      const invoice = await create(pixRequest({ method: "credit_card", total_price_cents: 50_000 + round }))
      const [paid, created] = await Promise.all([
        payAsPayer(invoice),
        app.request("POST", "/api/v2/invoices", { key, body: cardRequest({}, { total_price_cents: 60_000 + round }) })
      ])

      expect([paid.status, created.status], JSON.stringify([paid.body, created.body])).toEqual([200, 201])
      expect([paid.body.status, created.body.status]).toEqual(["paid", "paid"])
      await expectOnlyTheWinner(await get(invoice.secureId), "paid")
    }
  })

  it("the expiry sweep racing sandbox payments of due pix invoices: each is paid or expired, never both, no 500", async () => {
    const { create, sandbox } = await merchant()
    const invoices = []
    for (let n = 0; n < 12; n++)
      invoices.push(await create(pixRequest({ total_price_cents: 40_000 + n, expires_in: 60 })))
    const due = new Date(Date.parse(invoices.at(-1).createdAt) + 3_600_000)

    const [swept, ...replies] = await Promise.all([
      app.sweepExpirationsAt(due),
      ...invoices.map((invoice) => sandbox("pay", invoice.secureId))
    ])

    for (const reply of replies) expect([200, 409]).toContain(reply.status)
    const expired = replies.filter((reply) => reply.status === 409)
    for (const reply of expired) expect(reply.body.code).toBe("invalid_state")
    // The sweep sees the invoices whose payment came after it: those it expired, and nothing else.
    expect(swept).toBe(expired.length)
    for (const [n, invoice] of invoices.entries()) {
      await expectOnlyTheWinner(invoice, replies[n]?.status === 200 ? "paid" : "expired")
    }
  })
})
