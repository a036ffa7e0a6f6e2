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

  /** A company with a paid pix invoice refunded in part and a paid card invoice. */
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
    expect(page.data.map((entry) => [entry.type, entry.direction, entry.balance, entry.invoice_id])).toEqual([
      ["refund", "debit", "pix", pix.secureId],
      ["fee", "debit", "card", card.secureId],
      ["payment", "credit", "card", card.secureId],
      ["fee", "debit", "pix", pix.secureId],
      ["payment", "credit", "pix", pix.secureId]
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
    const enterprise = (await app.request("GET", "/api/v2/company", { key })).body
    const sum = (balance: string) =>
      page.data
        .filter((entry) => entry.balance === balance)
        .reduce((total, entry) => total + (entry.direction === "credit" ? entry.amount : -entry.amount), 0)
    expect([sum("pix"), sum("card"), sum("bank_slip")]).toEqual([
      enterprise.balance_pix,
      enterprise.balance_card,
      enterprise.balance_bank_slip
    ])
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
      "type=withdrawal",
      "starting_after=abc",
      "created_gte=yesterday"
    ]) {
      const reply = await app.request("GET", `/api/v2/balance/operations?${query}`, { key })
      expect([reply.status, reply.body.code], query).toEqual([400, "invalid_request"])
    }
  })
})
