// SPEC 13.2: the statement over HTTP — every ledger entry of the key's company and mode, newest first, in the
// contract's shape, filtered and paged as the query asks, and summing to the balances Company Infos shows.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cardRequest, pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

interface Operation {
  readonly id: number
  readonly type: string
  readonly direction: "credit" | "debit"
  readonly amount: number
  readonly balance: string
  readonly bucket: "available" | "waiting"
  readonly invoice_id: string
  readonly created_at: string
}

describe.each(testDatabases)("the statement on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  const operations = async (key: string, query = "") => {
    const reply = await app.request("GET", `/api/v2/balance/operations${query}`, { key })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body as { data: Array<Operation>; has_more: boolean; next_cursor: number | null }
  }

  /**
   * A company with a paid pix invoice refunded in part (pix is available at once, so the refund takes from the
   * available balance) and a paid card invoice, whose money waits for its receivable (SPEC 13.1).
   */
  const aCompanyThatSold = async () => {
    const registered = await app.registerCompany()
    const key = registered.secretKey
    const pix = (await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })).body
    await app.request("POST", "/api/v2/sandbox/invoices/pay", { key, body: { id: pix.secureId } })
    const card = (await app.request("POST", "/api/v2/invoices", { key, body: cardRequest() })).body
    expect(card.status).toBe("paid")
    const refunded = await app.request("POST", "/api/v2/invoices/refund", {
      key,
      body: { id: pix.secureId, amount: 1_000 }
    })
    expect(refunded.status).toBe(201)
    return { ...registered, key, pix, card }
  }

  it("lists every entry newest first, each with its invoice, summing to the company's balances", async () => {
    const { key, company, pix, card } = await aCompanyThatSold()
    const live = await app.createKey(company.id, "live")

    const page = await operations(key)
    expect(page.has_more).toBe(false)
    expect(page.next_cursor).toBeNull()
    expect(
      page.data.map((entry) => [entry.type, entry.direction, entry.balance, entry.bucket, entry.invoice_id])
    ).toEqual([
      ["refund", "debit", "pix", "available", pix.secureId],
      ["fee", "debit", "card", "waiting", card.secureId],
      ["payment", "credit", "card", "waiting", card.secureId],
      ["fee", "debit", "pix", "available", pix.secureId],
      ["payment", "credit", "pix", "available", pix.secureId]
    ])
    expect(page.data[0]).toEqual({
      id: page.data[0]!.id,
      type: "refund",
      direction: "debit",
      amount: 1_000,
      balance: "pix",
      bucket: "available",
      invoice_id: pix.secureId,
      withdrawal_id: null,
      anticipation_id: null,
      created_at: page.data[0]!.created_at
    })
    // Each bucket of each balance is the sum of its entries: `balance_*` the available ones, `waiting_funds_*` the
    // waiting ones. Pix 12 345 − 246 − 1 000 is available; card 10 000 − 438 waits for its receivable.
    const sums = (entries: ReadonlyArray<Operation>) => {
      const sum = (balance: string, bucket: string) =>
        entries
          .filter((entry) => entry.balance === balance && entry.bucket === bucket)
          .reduce((total, entry) => total + (entry.direction === "credit" ? entry.amount : -entry.amount), 0)
      return ["pix", "card", "bank_slip"].flatMap((balance) => [sum(balance, "available"), sum(balance, "waiting")])
    }
    const shown = async () => {
      const enterprise = (await app.request("GET", "/api/v2/company", { key })).body
      return ["pix", "card", "bank_slip"].flatMap((balance) => [
        enterprise[`balance_${balance}`],
        enterprise[`waiting_funds_${balance}`]
      ])
    }
    expect(sums(page.data)).toEqual([11_099, 0, 0, 9_562, 0, 0])
    expect(await shown()).toEqual(sums(page.data))

    // Released, the card's receivable moves its money from one bucket to the other: two settlement entries.
    const released = await app.request("POST", "/api/v2/sandbox/receivables/release", { key, body: { id: card.id } })
    expect(released.status, JSON.stringify(released.body)).toBe(200)
    const after = (await operations(key)).data
    expect(after.slice(2)).toEqual(page.data)
    expect(
      after
        .slice(0, 2)
        .map((entry) => [entry.type, entry.direction, entry.amount, entry.balance, entry.bucket, entry.invoice_id])
        .sort()
    ).toEqual([
      ["settlement", "credit", 9_562, "card", "available", card.secureId],
      ["settlement", "debit", 9_562, "card", "waiting", card.secureId]
    ])
    expect(sums(after)).toEqual([11_099, 0, 9_562, 0, 0, 0])
    expect(await shown()).toEqual(sums(after))
    // The test key's entries are not the live key's (the ports' contract holds each mode to its own entries).
    expect((await operations(live.secretKey)).data).toEqual([])
  })

  it("filters by balance, type and time, and pages by next_cursor", async () => {
    const { key } = await aCompanyThatSold()
    const all = (await operations(key)).data
    expect((await operations(key, "?balance=card")).data).toEqual(all.filter((entry) => entry.balance === "card"))
    expect((await operations(key, "?type=fee")).data).toEqual(all.filter((entry) => entry.type === "fee"))
    const refund = all[0]!
    // The refund's instant in another offset is the same instant.
    const sameInstant = new Date(Date.parse(refund.created_at)).toISOString().replace("Z", "+00:00")
    expect((await operations(key, `?created_gte=${encodeURIComponent(refund.created_at)}`)).data).toEqual([refund])
    expect((await operations(key, `?created_lte=${encodeURIComponent(sameInstant)}`)).data.length).toBeGreaterThan(0)

    const first = await operations(key, "?limit=2")
    expect([first.data, first.has_more, first.next_cursor]).toEqual([all.slice(0, 2), true, all[1]!.id])
    const second = await operations(key, `?limit=2&starting_after=${first.next_cursor}`)
    expect(second.data).toEqual(all.slice(2, 4))
    const last = await operations(key, `?limit=2&starting_after=${second.next_cursor}`)
    expect([last.data, last.has_more, last.next_cursor]).toEqual([all.slice(4), false, null])
  })

  it("answers 404 for a cursor not of the caller's, and 400 for a query it cannot read", async () => {
    const { key } = await aCompanyThatSold()
    const other = await app.registerCompany()
    const entry = (await operations(key)).data[0]!.id
    const notYours = await app.request("GET", `/api/v2/balance/operations?starting_after=${entry}`, {
      key: other.secretKey
    })
    expect([notYours.status, notYours.body.code]).toEqual([404, "not_found"])
    for (const query of [
      "limit=0",
      "limit=101",
      "balance=credit_card",
      "type=payout",
      "starting_after=abc",
      "created_gte=yesterday"
    ]) {
      const reply = await app.request("GET", `/api/v2/balance/operations?${query}`, { key })
      expect([reply.status, reply.body.code], query).toEqual([400, "invalid_request"])
    }
  })
})
