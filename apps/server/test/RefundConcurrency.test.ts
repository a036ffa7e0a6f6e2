// SPEC 4.4 (refunds under concurrency), 7.1, 7.4, 13.1: concurrent refunds never refund more than an invoice's
// amount, a fully refunded invoice refuses further refunds, and refunds on different invoices of one company never
// take the method's available balance below zero. A refund takes from the invoice's own waiting receivables first,
// then from the available balance. Every count is checked through the API and in the database.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Bucket, bucketsOf, release } from "./support/Receivables.js"
import { boletoPayer, cardRequest, pixRequest, startApp, statusCounts, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

type Method = "pix" | "bank_slip" | "credit_card"
type BalanceKind = "pix" | "card" | "bank_slip"

const balanceKindOf = (method: Method): BalanceKind => (method === "credit_card" ? "card" : method)

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

  /** The company's balance of `kind` in `bucket` as the sum of its ledger entries, credits minus debits. */
  const ledgerBalance = async (companyId: number, kind: BalanceKind, bucket: Bucket) => {
    const rows = await app.query(
      `SELECT coalesce(sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END), 0)::int AS total
       FROM ledger_entries WHERE company_id = ${companyId} AND balance = '${kind}' AND bucket = '${bucket}'`
    )
    return Number(rows[0]?.total)
  }

  /** Company Infos' balance of `kind`, each bucket of it next to the sum of its ledger entries. */
  const balances = async (key: string, companyId: number, kind: BalanceKind) => {
    const shown = bucketsOf(await getCompany(key))
    expect(shown.available[kind]).toBe(await ledgerBalance(companyId, kind, "available"))
    expect(shown.waiting[kind]).toBe(await ledgerBalance(companyId, kind, "waiting"))
    return { available: shown.available[kind], waiting: shown.waiting[kind] }
  }

  const storedRefunds = async (invoiceId: number) => {
    const [row] = await app.query(
      `SELECT count(*)::int AS count, coalesce(sum(amount), 0)::int AS total FROM refunds WHERE invoice_id = ${invoiceId}`
    )
    const [ledger] = await app.query(
      `SELECT count(*)::int AS count, coalesce(sum(amount), 0)::int AS total
       FROM ledger_entries WHERE invoice_id = ${invoiceId} AND type = 'refund' AND direction = 'debit'`
    )
    const buckets = await app.query(
      `SELECT bucket, sum(amount)::int AS total FROM ledger_entries
       WHERE invoice_id = ${invoiceId} AND type = 'refund' GROUP BY bucket ORDER BY bucket`
    )
    const [invoice] = await app.query(
      `SELECT status, refunded_amount::int AS refunded FROM invoices WHERE id = ${invoiceId}`
    )
    return {
      refunds: { count: Number(row?.count), total: Number(row?.total) },
      ledger: { count: Number(ledger?.count), total: Number(ledger?.total) },
      /** What its refunds took from each bucket. */
      buckets: Object.fromEntries(buckets.map((row) => [row.bucket, Number(row.total)])),
      invoice
    }
  }

  it.each([
    // A pix is available at once: the cushion's 5 000 − 100 and the invoice's 10 000 − 199.
    { method: "pix", amount: 10_000, cushion: 5_000, available: 4_900 + 9_801, waiting: 0, entries: 10 },
    // A card's invoice waits for its receivable (10 000 − 438): the first 9 refunds take from it, the last the 562
    // left there and the 438 of its fee from the available balance, two entries.
    { method: "credit_card", amount: 10_000, cushion: 5_000, available: 5_000 - 239, waiting: 9_562, entries: 11 },
    // A boleto's likewise (10 000 − 349): the last refund takes 651 from it and 349 from the available balance.
    { method: "bank_slip", amount: 10_000, cushion: 5_000, available: 5_000 - 349, waiting: 9_651, entries: 11 }
  ] as const)(
    "50 concurrent refunds of a tenth each on a paid $method invoice: exactly 10 succeed",
    async ({ method, amount, cushion, available, waiting, entries }) => {
      const { key, companyId } = await freshCompany()
      const kind = balanceKindOf(method)
      // The invoice's own receivable holds amount − fee, so another paid invoice of the same method, released so that
      // its money is available, covers the fee the refunds take from the available balance.
      await release(app, key, (await paidInvoice(key, method, cushion)).secureId)
      const invoice = await paidInvoice(key, method, amount)
      const before = await balances(key, companyId, kind)
      expect(before).toEqual({ available, waiting })
      expect(before.available + before.waiting).toBeGreaterThanOrEqual(amount)

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
      expect(refundMovements).toHaveLength(entries)
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
      expect(stored.ledger).toEqual({ count: entries, total: amount })
      // All the invoice's receivable waited for, and only the rest from the available balance.
      expect(stored.buckets).toEqual({
        available: amount - waiting,
        ...(waiting === 0 ? {} : { waiting })
      })
      expect(stored.invoice).toEqual({ status: "refunded", refunded: amount })
      const events = await app.query(
        `SELECT type, count(*)::int AS count FROM events WHERE invoice_id = ${Number(invoice.id)}
       AND type IN ('invoice.partially_refunded', 'invoice.refunded') GROUP BY type ORDER BY type`
      )
      expect(events).toEqual([
        { type: "invoice.partially_refunded", count: 9 },
        { type: "invoice.refunded", count: 1 }
      ])

      expect(await balances(key, companyId, kind)).toEqual({ available: available - (amount - waiting), waiting: 0 })
    }
  )

  it("20 concurrent full refunds of a paid invoice: exactly one succeeds, the others are 409 invalid_state", async () => {
    const { key, companyId } = await freshCompany()
    await paidInvoice(key, "pix", 20_000)
    const invoice = await paidInvoice(key, "pix", 7_777)
    // Pix is available at once: 20 000 − 398 and 7 777 − 155.
    const balanceBefore = (await balances(key, companyId, "pix")).available
    expect(balanceBefore).toBe(19_602 + 7_622)

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
    expect(stored.buckets).toEqual({ available: 7_777 })
    expect(stored.invoice).toEqual({ status: "refunded", refunded: 7_777 })

    expect(await balances(key, companyId, "pix")).toEqual({ available: balanceBefore - 7_777, waiting: 0 })
  })

  it.each([
    // Boleto fees are 349 cents each, so 12 paid slips of R$ 10,00 leave 12 × 651 = 7 812 cents:
    // of 24 refunds of 500 cents (12 000 in all) only 15 fit.
    { method: "bank_slip", invoices: 12, amount: 1_000, fee: 349, perInvoice: 2, refundAmount: 500, fits: 15 },
    // Pix fees are 1.99 %: 8 × 9 801 = 78 408 cents cover 7 of 8 full refunds of 10 000.
    { method: "pix", invoices: 8, amount: 10_000, fee: 199, perInvoice: 1, refundAmount: 10_000, fits: 7 },
    // Card fees are 3.99 % + 39: 6 × 9 562 = 57 372 cents cover 11 of 12 half refunds of 5 000.
    { method: "credit_card", invoices: 6, amount: 10_000, fee: 438, perInvoice: 2, refundAmount: 5_000, fits: 11 }
  ] as const)(
    "concurrent refunds on different $method invoices never take the balance below zero",
    async ({ method, invoices, amount, fee, perInvoice, refundAmount, fits }) => {
      const { key, companyId } = await freshCompany()
      const kind = balanceKindOf(method)
      // Every sale released: what refunds on different invoices share, and compete for, is the available balance
      // (each takes from its own invoice's waiting receivables first, which no other invoice's refund can touch).
      const paid = []
      for (let i = 0; i < invoices; i++) {
        const sale = await paidInvoice(key, method, amount)
        await release(app, key, sale.secureId)
        paid.push(sale)
      }
      const balanceBefore = invoices * (amount - fee)
      expect(await balances(key, companyId, kind)).toEqual({ available: balanceBefore, waiting: 0 })
      expect(invoices * perInvoice * refundAmount).toBeGreaterThan(balanceBefore)
      expect(Math.floor(balanceBefore / refundAmount)).toBe(fits)

      const targets = paid.flatMap((invoice) => Array.from({ length: perInvoice }, () => invoice.secureId))
      const replies = await Promise.all(targets.map((id) => refund(key, id, refundAmount)))

      // Each invoice has room for all its refunds: only the balance refuses them.
      expect(statusCounts(replies)).toEqual({
        "201": fits,
        "422 insufficient_balance": invoices * perInvoice - fits
      })

      const balanceAfter = await balances(key, companyId, kind)
      expect(balanceAfter.available).toBeGreaterThanOrEqual(0)
      expect(balanceAfter).toEqual({ available: balanceBefore - fits * refundAmount, waiting: 0 })

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
         FROM ledger_entries WHERE company_id = ${companyId} AND type = 'refund' AND bucket = 'available'`
      )
      expect(ledger).toEqual({ count: fits, total: fits * refundAmount })
    }
  )
})
