// The bench's hand-written baseline (bench/baseline.mjs) sends the texts of `@fatura/persistence/statements`: here,
// counted on Postgres's wire (support/WireCounter.ts), those texts are what the service itself sends for a pix create
// and a Search, in that order, once the key is known. So the baseline runs the service's SQL, not a copy of it.
import * as Statements from "@fatura/persistence/statements"
import { describe, expect, it } from "vitest"
import { appCountedOnTheWire } from "./support/SuiteServers.js"
import { pixRequest } from "./support/TestApp.js"

describe("the statements of @fatura/persistence/statements on Postgres's wire", () => {
  const suite = appCountedOnTheWire(import.meta.url)

  const create = async () => {
    const reply = await suite.app.request("POST", "/api/v2/invoices", { key: suite.key, body: pixRequest() })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return reply.body as { readonly id: number; readonly secureId: string }
  }
  const search = async (id: string) =>
    expect((await suite.app.request("GET", `/api/v2/invoices?id=${id}`, { key: suite.key })).status).toBe(200)
  const sent = suite.statementsDuring

  it("a pix create sends the company with its totals, the client upsert, the invoice insert and the event insert", async () => {
    await create()
    expect(await sent(create)).toEqual([
      Statements.companyWithTotals,
      Statements.upsertClient,
      Statements.insertInvoice(1),
      Statements.insertEvent
    ])
  })

  it("a Search sends the invoice with its company, by secure id or by id", async () => {
    const invoice = await create()
    await search(invoice.secureId)
    expect(await sent(() => search(invoice.secureId))).toEqual([Statements.invoiceWithCompanyBySecureId])
    expect(await sent(() => search(String(invoice.id)))).toEqual([Statements.invoiceWithCompanyById])
  })
})
