// The bench's hand-written baseline (bench/baseline.mjs) sends the texts of `@fatura/persistence/statements`: here,
// counted on Postgres's wire (support/WireCounter.ts), those texts are what the service itself sends for a pix create
// and a Search, in that order, once the key is known. So the baseline runs the service's SQL, not a copy of it.
import * as Statements from "@fatura/persistence/statements"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"
import { countingStatements, isTransactionControl, type WireCounter } from "./support/WireCounter.js"

/** Postgres, which TEST_DATABASE_URL names: the server project runs `*.postgres.test.ts` only when it is given. */
const postgres = testDatabases.find((database) => database.name === "Postgres")
if (postgres === undefined)
  throw new Error(`${import.meta.url} needs TEST_DATABASE_URL: a Postgres server whose wire it can read`)

describe("the statements of @fatura/persistence/statements on Postgres's wire", () => {
  let counter: WireCounter
  let app: TestApp
  let key: string

  beforeAll(async () => {
    counter = await countingStatements(postgres)
    app = await startApp(counter.database)
    key = (await app.registerCompany()).secretKey
  })
  afterAll(async () => {
    await app.stop()
    await counter.close()
  })

  const create = async () => {
    const reply = await app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return reply.body as { readonly id: number; readonly secureId: string }
  }
  const search = async (id: string) =>
    expect((await app.request("GET", `/api/v2/invoices?id=${id}`, { key })).status).toBe(200)
  const sent = async (request: () => Promise<unknown>) =>
    (await counter.statementsDuring(request)).filter((statement) => !isTransactionControl(statement))

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
