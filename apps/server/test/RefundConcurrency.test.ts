// SPEC 4.4 (refunds under concurrency), 7.1, 7.4: concurrent refunds never refund more than an invoice's amount,
// a fully refunded invoice refuses further refunds, and refunds on different invoices of one company never take
// the method's balance below zero. Every count is checked through the API and in the database.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { boletoPayer, cardRequest, pixRequest, startApp, statusCounts, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

type Method = "pix" | "bank_slip" | "credit_card"
type BalanceKind = "pix" | "card" | "bank_slip"

const balanceKindOf = (method: Method): BalanceKind => (method === "credit_card" ? "card" : method)
const balanceField = (kind: BalanceKind) => `balance_${kind}` as const

const invoiceRequest = (method: Method, amount: number) =>
  method === "credit_card"
    ? cardRequest({}, { total_price_cents: amount })
    : method === "bank_slip"
      ? pixRequest({ method, total_price_cents: amount, payer: boletoPayer })
      : pixRequest({ total_price_cents: amount })

describe.each(testDatabases)("concurrent refunds on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  /** A fresh company, so that its balances start at zero and each test sees only its own money. */
  const freshCompany = async () => {
    const registered = await app.registerCompany({ name: "Loja Concorrente Ltda" })
    return { key: registered.secretKey, companyId: Number(registered.company.id) }
  }

  /** A paid invoice of `method`: cards are paid at creation, pix and boleto through the sandbox. */
  const paidInvoice = async (key: string, method: Method, amount: number) => {
    const created = await app.request("POST", "/api/v2/invoices", { key, body: invoiceRequest(method, amount) })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    if (method === "credit_card") {
      expect(created.body.status).toBe("paid")
      return created.body
    }
    const paid = await app.request("POST", "/api/v2/sandbox/invoices/pay", { key, body: { id: created.body.secureId } })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.status).toBe("paid")
    return paid.body
  }

  const refund = (key: string, id: string, amount?: number) =>
    app.request("POST", "/api/v2/invoices/refund", {
      key,
      body: amount === undefined ? { id, reason: "concurrency test" } : { id, amount, reason: "concurrency test" }
    })

  const getInvoice = async (key: string, id: string) => {
    const reply = await app.request("GET", `/api/v2/invoices?id=${id}`, { key })
    expect(reply.status).toBe(200)
    return reply.body
  }

  const getCompany = async (key: string) => {
    const reply = await app.request("GET", "/api/v2/company", { key })
    expect(reply.status).toBe(200)
    return reply.body
  }

  /** The company's balance of `kind` as the sum of its ledger entries, credits minus debits. */
  const ledgerBalance = async (companyId: number, kind: BalanceKind) => {
    const rows = await app.query(
      `SELECT coalesce(sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END), 0)::int AS total
       FROM ledger_entries WHERE company_id = ${companyId} AND balance = '${kind}'`
    )
    return Number(rows[0]?.total)
  }

  const storedRefunds = async (invoiceId: number) => {
    const [row] = await app.query(
      `SELECT count(*)::int AS count, coalesce(sum(amount), 0)::int AS total FROM refunds WHERE invoice_id = ${invoiceId}`
    )
    const [ledger] = await app.query(
      `SELECT count(*)::int AS count, coalesce(sum(amount), 0)::int AS total
       FROM ledger_entries WHERE invoice_id = ${invoiceId} AND type = 'refund' AND direction = 'debit'`
    )
    const [invoice] = await app.query(
      `SELECT status, refunded_amount::int AS refunded FROM invoices WHERE id = ${invoiceId}`
    )
    return {
      refunds: { count: Number(row?.count), total: Number(row?.total) },
      ledger: { count: Number(ledger?.count), total: Number(ledger?.total) },
      invoice
    }
  }

  it.each([
    ["pix", 10_000, 5_000],
    ["credit_card", 10_000, 5_000],
    ["bank_slip", 10_000, 5_000]
  ] as const)(
    "50 concurrent refunds of a tenth each on a paid %s invoice: exactly 10 succeed",
    async (method, amount, cushion) => {
      const { key, companyId } = await freshCompany()
      const kind = balanceKindOf(method)
      // The balance is amount − fee, so another paid invoice of the same method makes it cover the whole amount.
      await paidInvoice(key, method, cushion)
      const invoice = await paidInvoice(key, method, amount)
      const balanceBefore = (await getCompany(key))[balanceField(kind)]
      expect(balanceBefore).toBeGreaterThanOrEqual(amount)

      const tenth = amount / 10
      const replies = await Promise.all(Array.from({ length: 50 }, () => refund(key, invoice.secureId, tenth)))

      const succeeded = replies.filter((reply) => reply.status === 201)
      expect(succeeded, JSON.stringify(statusCounts(replies))).toHaveLength(10)
      for (const reply of replies) {
        if (reply.status === 201) continue
        expect([
          [422, "refund_exceeds_remaining"],
          [409, "invalid_state"]
        ]).toContainEqual([reply.status, reply.body.code])
      }
      // Every success saw the refunds before it: the refunded amounts it reports are 1, 2, … 10 tenths.
      expect(succeeded.map((reply) => reply.body.refundedAmount).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 10 }, (_, i) => (i + 1) * tenth)
      )

      const after = await getInvoice(key, invoice.secureId)
      expect(after.status).toBe("refunded")
      expect(after.refundedAmount).toBe(amount)
      expect(after.refunds).toHaveLength(10)
      expect(after.refunds.every((entry: { amount: number }) => entry.amount === tenth)).toBe(true)
      const refundMovements = after.financial_movements.filter((entry: { type: string }) => entry.type === "refund")
      expect(refundMovements).toHaveLength(10)
      expect(refundMovements.every((entry: { direction: string }) => entry.direction === "debit")).toBe(true)
      expect(refundMovements.reduce((sum: number, entry: { amount: number }) => sum + entry.amount, 0)).toBe(amount)
      expect(after.timeline.map((entry: { status: string }) => entry.status)).toEqual([
        "pending",
        "paid",
        ...Array.from({ length: 9 }, () => "partially_refunded"),
        "refunded"
      ])

      const stored = await storedRefunds(Number(invoice.id))
      expect(stored.refunds).toEqual({ count: 10, total: amount })
      expect(stored.ledger).toEqual({ count: 10, total: amount })
      expect(stored.invoice).toEqual({ status: "refunded", refunded: amount })
      const events = await app.query(
        `SELECT type, count(*)::int AS count FROM events WHERE invoice_id = ${Number(invoice.id)}
       AND type IN ('invoice.partially_refunded', 'invoice.refunded') GROUP BY type ORDER BY type`
      )
      expect(events).toEqual([
        { type: "invoice.partially_refunded", count: 9 },
        { type: "invoice.refunded", count: 1 }
      ])

      const company = await getCompany(key)
      expect(company[balanceField(kind)]).toBe(balanceBefore - amount)
      expect(company[balanceField(kind)]).toBe(await ledgerBalance(companyId, kind))
    }
  )

  it("20 concurrent full refunds of a paid invoice: exactly one succeeds, the others are 409 invalid_state", async () => {
    const { key, companyId } = await freshCompany()
    await paidInvoice(key, "pix", 20_000)
    const invoice = await paidInvoice(key, "pix", 7_777)
    const balanceBefore = (await getCompany(key)).balance_pix

    const replies = await Promise.all(Array.from({ length: 20 }, () => refund(key, invoice.secureId)))

    const counts = statusCounts(replies)
    expect(counts).toEqual({ "201": 1, "409 invalid_state": 19 })
    const winner = replies.find((reply) => reply.status === 201)
    expect(winner?.body).toMatchObject({ status: "refunded", refundedAmount: 7_777 })

    const after = await getInvoice(key, invoice.secureId)
    expect(after).toMatchObject({ status: "refunded", refundedAmount: 7_777 })
    expect(after.refunds).toHaveLength(1)
    expect(after.refunds[0]).toMatchObject({ amount: 7_777, status: "succeeded" })
    expect(after.timeline.map((entry: { status: string }) => entry.status)).toEqual(["pending", "paid", "refunded"])

    const stored = await storedRefunds(Number(invoice.id))
    expect(stored.refunds).toEqual({ count: 1, total: 7_777 })
    expect(stored.ledger).toEqual({ count: 1, total: 7_777 })
    expect(stored.invoice).toEqual({ status: "refunded", refunded: 7_777 })

    const company = await getCompany(key)
    expect(company.balance_pix).toBe(balanceBefore - 7_777)
    expect(company.balance_pix).toBe(await ledgerBalance(companyId, "pix"))
  })

  it.each([
    // Boleto fees are 349 cents each, so 12 paid slips of R$ 10,00 leave 12 × 651 = 7 812 cents:
    // of 24 refunds of 500 cents (12 000 in all) only 15 fit.
    { method: "bank_slip", invoices: 12, amount: 1_000, perInvoice: 2, refundAmount: 500, fits: 15 },
    // Pix fees are 1.99 %: 8 × 9 801 = 78 408 cents cover 7 of 8 full refunds of 10 000.
    { method: "pix", invoices: 8, amount: 10_000, perInvoice: 1, refundAmount: 10_000, fits: 7 },
    // Card fees are 3.99 % + 39: 6 × 9 562 = 57 372 cents cover 11 of 12 half refunds of 5 000.
    { method: "credit_card", invoices: 6, amount: 10_000, perInvoice: 2, refundAmount: 5_000, fits: 11 }
  ] as const)(
    "concurrent refunds on different $method invoices never take the balance below zero",
    async ({ method, invoices, amount, perInvoice, refundAmount, fits }) => {
      const { key, companyId } = await freshCompany()
      const kind = balanceKindOf(method)
      const paid = []
      for (let i = 0; i < invoices; i++) paid.push(await paidInvoice(key, method, amount))
      const balanceBefore = (await getCompany(key))[balanceField(kind)]
      expect(balanceBefore).toBe(await ledgerBalance(companyId, kind))
      expect(invoices * perInvoice * refundAmount).toBeGreaterThan(balanceBefore)
      expect(Math.floor(balanceBefore / refundAmount)).toBe(fits)

      const targets = paid.flatMap((invoice) => Array.from({ length: perInvoice }, () => invoice.secureId))
      const replies = await Promise.all(targets.map((id) => refund(key, id, refundAmount)))

      // Each invoice has room for all its refunds: only the balance refuses them.
      expect(statusCounts(replies)).toEqual({
        "201": fits,
        "422 insufficient_balance": invoices * perInvoice - fits
      })

      const company = await getCompany(key)
      const balanceAfter = company[balanceField(kind)]
      expect(balanceAfter).toBeGreaterThanOrEqual(0)
      expect(balanceAfter).toBe(balanceBefore - fits * refundAmount)
      expect(balanceAfter).toBe(await ledgerBalance(companyId, kind))

      let refundedThroughApi = 0
      let refundsThroughApi = 0
      for (const invoice of paid) {
        const after = await getInvoice(key, invoice.secureId)
        const listed = after.refunds.reduce((sum: number, entry: { amount: number }) => sum + entry.amount, 0)
        expect(after.refundedAmount).toBe(listed)
        expect(after.refundedAmount).toBeLessThanOrEqual(amount)
        expect(after.status).toBe(
          after.refundedAmount === 0 ? "paid" : after.refundedAmount === amount ? "refunded" : "partially_refunded"
        )
        refundedThroughApi += after.refundedAmount
        refundsThroughApi += after.refunds.length
      }
      expect(refundsThroughApi).toBe(fits)
      expect(refundedThroughApi).toBe(fits * refundAmount)

      const ids = paid.map((invoice) => Number(invoice.id)).join(", ")
      const [stored] = await app.query(
        `SELECT count(*)::int AS count, coalesce(sum(amount), 0)::int AS total FROM refunds WHERE invoice_id IN (${ids})`
      )
      expect(stored).toEqual({ count: fits, total: fits * refundAmount })
      const [ledger] = await app.query(
        `SELECT count(*)::int AS count, coalesce(sum(amount), 0)::int AS total
         FROM ledger_entries WHERE company_id = ${companyId} AND type = 'refund'`
      )
      expect(ledger).toEqual({ count: fits, total: fits * refundAmount })
    }
  )
})
