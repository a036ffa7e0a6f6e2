// SPEC 13.1 and 7.4 over HTTP: a card sale's schedule in the contract's shape, its money waiting in
// `waiting_funds_card` until the sandbox releases it (or its day comes), filters and cursor of the schedule, refunds
// taking back from the invoice's waiting receivables first, and the release and the filter refused to live keys and
// to others.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { boletoRequest, cardRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

interface Receivable {
  readonly id: number
  readonly invoice_id: string
  readonly installment: number
  readonly amount: number
  readonly fee: number
  readonly net_amount: number
  readonly status: string
  readonly payment_date: string
  readonly original_payment_date: string
  readonly created_at: string
}

interface Page {
  readonly data: Array<Receivable>
  readonly has_more: boolean
  readonly next_cursor: number | null
}

describe.each(testDatabases)("receivables on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  const schedule = async (key: string, query = "") => {
    const reply = await app.request("GET", `/api/v2/receivables${query}`, { key })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body as Page
  }

  const company = async (key: string) => (await app.request("GET", "/api/v2/company", { key })).body

  /** A card sale of R$ 300,00 in 3 installments, paid at once. */
  const aCardSale = async (key: string) => {
    const sale = await app.request("POST", "/api/v2/invoices", {
      key,
      body: cardRequest({ installment: 3 }, { total_price_cents: 30_000 })
    })
    expect(sale.status, JSON.stringify(sale.body)).toBe(201)
    expect(sale.body.status).toBe("paid")
    return sale.body
  }

  it("schedules a card sale's installments 30, 60 and 90 days on, waiting until their days", async () => {
    const { secretKey: key } = await app.registerCompany()
    const sale = await aCardSale(key)
    const page = await schedule(key)
    expect(page.has_more).toBe(false)
    expect(page.data.map((receivable) => [receivable.installment, receivable.amount, receivable.fee])).toEqual([
      [1, 10_000, sale.fee.estimatedFee - 2 * Math.floor(sale.fee.estimatedFee / 3)],
      [2, 10_000, Math.floor(sale.fee.estimatedFee / 3)],
      [3, 10_000, Math.floor(sale.fee.estimatedFee / 3)]
    ])
    const [first] = page.data
    expect(first).toEqual({
      id: first!.id,
      invoice_id: sale.secureId,
      installment: 1,
      amount: 10_000,
      fee: first!.fee,
      net_amount: 10_000 - first!.fee,
      status: "waiting_funds",
      payment_date: first!.payment_date,
      original_payment_date: first!.payment_date,
      anticipation_fee: 0,
      created_at: first!.created_at,
      updated_at: first!.created_at
    })
    const dates = page.data.map((receivable) => receivable.payment_date)
    expect([...dates].sort()).toEqual(dates)
    // Each a business day, 30, 60 and 90 days on or the first business day after.
    const paidOn = Date.parse(`${sale.paidAt.slice(0, 10)}T00:00:00Z`)
    for (const [n, date] of dates.entries()) {
      const days = (Date.parse(`${date}T00:00:00Z`) - paidOn) / 86_400_000
      expect(days).toBeGreaterThanOrEqual(30 * (n + 1) - 1)
      expect(days).toBeLessThanOrEqual(30 * (n + 1) + 5)
      expect([0, 6]).not.toContain(new Date(`${date}T00:00:00Z`).getUTCDay())
    }
    const enterprise = await company(key)
    expect([enterprise.balance_card, enterprise.waiting_funds_card]).toEqual([0, sale.fee.netAmount])
    expect(sale.financial_movements.map((entry: { bucket: string }) => entry.bucket)).toEqual(["waiting", "waiting"])
  })

  it("releases an invoice's waiting receivables in the sandbox: available now, dated today", async () => {
    const { secretKey: key, company: owner } = await app.registerCompany()
    const sale = await aCardSale(key)
    const released = await app.request("POST", "/api/v2/sandbox/receivables/release", { key, body: { id: sale.id } })
    expect(released.status, JSON.stringify(released.body)).toBe(200)
    expect(released.body.enterprise).toMatchObject({ balance_card: sale.fee.netAmount, waiting_funds_card: 0 })
    expect(
      released.body.financial_movements
        .slice(2)
        .map((entry: Record<string, unknown>) => [entry.type, entry.direction, entry.bucket])
    ).toEqual([
      ["settlement", "debit", "waiting"],
      ["settlement", "credit", "available"],
      ["settlement", "debit", "waiting"],
      ["settlement", "credit", "available"],
      ["settlement", "debit", "waiting"],
      ["settlement", "credit", "available"]
    ])
    const page = await schedule(key)
    expect(page.data.map((receivable) => [receivable.status, receivable.payment_date])).toEqual(
      page.data.map(() => ["available", released.body.updatedAt.slice(0, 10)])
    )
    expect(page.data.every((receivable) => receivable.original_payment_date > receivable.payment_date)).toBe(true)

    const live = await app.createKey(owner.id, "live")
    const refused = await app.request("POST", "/api/v2/sandbox/receivables/release", {
      key: live.secretKey,
      body: { id: sale.id }
    })
    expect([refused.status, refused.body.code]).toEqual([403, "forbidden"])
    const other = await app.registerCompany()
    const foreign = await app.request("POST", "/api/v2/sandbox/receivables/release", {
      key: other.secretKey,
      body: { id: sale.secureId }
    })
    expect([foreign.status, foreign.body.code]).toEqual([404, "not_found"])
  })

  it("refunds from the invoice's waiting receivables, latest first, and the rest from the available balance", async () => {
    const { secretKey: key } = await app.registerCompany()
    const other = await aCardSale(key)
    await app.request("POST", "/api/v2/sandbox/receivables/release", { key, body: { id: other.secureId } })
    const sale = await aCardSale(key)
    const net = (await schedule(key, `?invoice_id=${sale.secureId}`)).data.map((receivable) => receivable.net_amount)
    const refund = net[2]! + net[1]! + 100
    const refunded = await app.request("POST", "/api/v2/invoices/refund", {
      key,
      body: { id: sale.secureId, amount: refund }
    })
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201)
    expect(
      refunded.body.financial_movements.slice(2).map((entry: Record<string, unknown>) => [entry.amount, entry.bucket])
    ).toEqual([[net[2]! + net[1]! + 100, "waiting"]])
    const taken = (await schedule(key, `?invoice_id=${sale.secureId}`)).data
    expect(taken.map((receivable) => [receivable.installment, receivable.net_amount, receivable.status])).toEqual([
      [1, net[0]!, "waiting_funds"],
      [1, -100, "waiting_funds"],
      [2, net[1]!, "waiting_funds"],
      [2, -net[1]!, "waiting_funds"],
      [3, net[2]!, "waiting_funds"],
      [3, -net[2]!, "waiting_funds"]
    ])
    // The rest of it waits; what the other sale made available is untouched.
    expect((await company(key)).waiting_funds_card).toBe(net[0]! - 100)
    expect((await company(key)).balance_card).toBe(other.fee.netAmount)

    // What is left to refund is more than the invoice still waits for by its fee: that part is available money.
    const rest = await app.request("POST", "/api/v2/invoices/refund", { key, body: { id: sale.secureId } })
    expect(rest.status, JSON.stringify(rest.body)).toBe(201)
    expect(
      rest.body.financial_movements.slice(3).map((entry: Record<string, unknown>) => [entry.amount, entry.bucket])
    ).toEqual([
      [net[0]! - 100, "waiting"],
      [sale.fee.estimatedFee, "available"]
    ])
    expect(rest.body.enterprise).toMatchObject({
      balance_card: other.fee.netAmount - sale.fee.estimatedFee,
      waiting_funds_card: 0
    })
    // The schedule still sums to what the invoice left: its fee, taken from the available balance.
    const left = (await schedule(key, `?invoice_id=${sale.secureId}`)).data
    expect(left.reduce((sum, receivable) => sum + receivable.net_amount, 0)).toBe(-sale.fee.estimatedFee)
  })

  it("filters the schedule by status, invoice and day, and pages it by cursor; another's cursor is a 404", async () => {
    const { secretKey: key } = await app.registerCompany()
    const first = await aCardSale(key)
    const second = await aCardSale(key)
    const boleto = (await app.request("POST", "/api/v2/invoices", { key, body: boletoRequest() })).body
    await app.request("POST", "/api/v2/sandbox/invoices/pay", { key, body: { id: boleto.secureId } })
    await app.request("POST", "/api/v2/sandbox/receivables/release", { key, body: { id: second.secureId } })

    const all = (await schedule(key)).data
    expect(all).toHaveLength(7)
    const pages: Array<Receivable> = []
    let cursor: number | null = null
    do {
      const page: Page = await schedule(key, `?limit=3${cursor === null ? "" : `&starting_after=${cursor}`}`)
      pages.push(...page.data)
      cursor = page.next_cursor
      expect(page.has_more).toBe(cursor !== null)
    } while (cursor !== null)
    expect(pages).toEqual(all)
    expect((await schedule(key, "?status=available")).data.map((receivable) => receivable.invoice_id)).toEqual([
      second.secureId,
      second.secureId,
      second.secureId
    ])
    expect((await schedule(key, `?invoice_id=${first.id}`)).data).toHaveLength(3)
    expect((await schedule(key, `?invoice_id=${boleto.secureId}`)).data).toHaveLength(1)
    const day = all.find((receivable) => receivable.invoice_id === boleto.secureId)!.payment_date
    expect(
      (await schedule(key, `?payment_date_gte=${day}&payment_date_lte=${day}`)).data.map((r) => r.invoice_id)
    ).toContain(boleto.secureId)
    const bad = await app.request("GET", "/api/v2/receivables?payment_date_gte=2026-02-30", { key })
    expect([bad.status, bad.body.code]).toEqual([400, "invalid_request"])

    const stranger = await app.registerCompany()
    const foreignInvoice = await app.request("GET", `/api/v2/receivables?invoice_id=${first.secureId}`, {
      key: stranger.secretKey
    })
    expect([foreignInvoice.status, foreignInvoice.body.code]).toEqual([404, "not_found"])
    const foreign = await app.request("GET", `/api/v2/receivables?starting_after=${all[0]!.id}`, {
      key: stranger.secretKey
    })
    expect(foreign.status).toBe(404)
  })
})
