// Issue 25: what a request costs the database, counted on Postgres's wire (support/WireCounter.ts), so that it cannot
// creep back. Each request is counted once the key is known and the connections are open (a run before it). Counted
// as the issue counts them: the statements that read or write, not the BEGIN and COMMIT around a transaction.
// Held to: a card create at most 9 statements, a refund at most 8, a sandbox pay at most 7, a pix create 4, a Search 1.
// The first three were 14, 11 and 10; they are 9, 6 and 6 since the history writer (InvoiceStatements.writeHistory)
// writes an invoice's row, timeline, ledger entries and refund in one statement and the invoice after it is built
// from what it wrote, never re-read.
import { describe, expect, it } from "vitest"
import { appCountedOnTheWire } from "./support/SuiteServers.js"
import { cardRequest, pixRequest } from "./support/TestApp.js"

describe("statements a request runs on Postgres's wire", () => {
  const suite = appCountedOnTheWire(import.meta.url)

  const post = async (path: string, body: unknown, status: number) => {
    const reply = await suite.app.request("POST", path, { key: suite.key, body })
    expect(reply.status, JSON.stringify(reply.body)).toBe(status)
    return reply.body
  }
  const create = (body: unknown) => post("/api/v2/invoices", body, 201)

  /** The statements of `request`, after a run of its `arrange` (unmeasured), the second time it is made. */
  const statementsOf = async (arrange: () => Promise<unknown>, request: (arranged: any) => Promise<unknown>) => {
    await request(await arrange())
    const arranged = await arrange()
    return suite.statementsDuring(() => request(arranged))
  }
  /** Held to `at most` statements; the texts are what a failure shows. */
  const expectAtMost = (statements: ReadonlyArray<string>, most: number) =>
    expect(statements.length, statements.join("\n---\n")).toBeLessThanOrEqual(most)

  it("a pix create: 4", async () => {
    const statements = await statementsOf(
      async () => undefined,
      () => create(pixRequest())
    )
    expect(statements, statements.join("\n---\n")).toHaveLength(4)
  })

  it("a pix create with a postback URL, to a company with webhook endpoints: still 4", async () => {
    // The event and every delivery it queues (the postback URL and each subscribed endpoint) are one statement.
    for (const path of ["/a", "/b"]) {
      await post("/api/v2/webhooks/endpoints", { url: `https://hooks.loja.example${path}`, events: ["*"] }, 201)
    }
    const statements = await statementsOf(
      async () => undefined,
      () => create(pixRequest({ postback_url: "https://loja.example/postbacks" }))
    )
    expect(statements, statements.join("\n---\n")).toHaveLength(4)
  })

  it("a Search: 1", async () => {
    const statements = await statementsOf(
      async () => (await create(pixRequest())).secureId,
      async (secureId: string) =>
        expect((await suite.app.request("GET", `/api/v2/invoices?id=${secureId}`, { key: suite.key })).status).toBe(200)
    )
    expect(statements, statements.join("\n---\n")).toHaveLength(1)
  })

  it("a card create: at most 9", async () => {
    const statements = await statementsOf(
      async () => undefined,
      async () => expect(await create(cardRequest())).toMatchObject({ status: "paid" })
    )
    expectAtMost(statements, 9)
  })

  it("a sandbox pay: at most 7", async () => {
    const statements = await statementsOf(
      async () => (await create(pixRequest())).secureId,
      (secureId: string) => post("/api/v2/sandbox/invoices/pay", { id: secureId }, 200)
    )
    expectAtMost(statements, 7)
  })

  it("a refund: at most 8", async () => {
    // A sale first, released, so that the available card balance covers the fee a full refund takes from it (fees are
    // not returned; the rest comes out of the refunded sale's own waiting receivable).
    const sale = await create(cardRequest({}, { total_price_cents: 50_000 }))
    await post("/api/v2/sandbox/receivables/release", { id: sale.secureId }, 200)
    const statements = await statementsOf(
      async () => (await create(cardRequest())).secureId,
      (secureId: string) => post("/api/v2/invoices/refund", { id: secureId }, 201)
    )
    expectAtMost(statements, 8)
  })
})
