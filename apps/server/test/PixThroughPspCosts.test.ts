// Pix through a PSP's API Pix (issue 17), what it costs: a notification, which anyone can send, costs a bounded number
// of PSP calls and database statements whatever it names; a PSP that cannot be reached makes nothing, until the same
// request works again; a charge the PSP refuses stores nothing; and all notifications share one allowance of PSP
// calls. Charges, payments, reconciliation and refunds through the PSP are PixThroughPsp.test.ts's.
import { notificationCallBudget } from "@fatura/application"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import {
  ApiPixContract,
  Exchanges,
  pixApi,
  settingsOf,
  startPsp,
  type TestPsp
} from "../../../packages/pix-api/test/support/LocalPsp.js"
import { localPspSuite } from "./support/PspHelpers.js"
import { pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

let contract: ApiPixContract

beforeAll(async () => {
  contract = await ApiPixContract.load()
})

describe.each(testDatabases)("what pix through the local PSP costs on $name", (database) => {
  const { suite, switches, payAtPsp, createPix, search, searchUntil, notify } = localPspSuite(database, () => contract)
  describe("a notification's cost", () => {
    /** What a notification costs: its status, the PSP calls and the SQL statements it made. */
    const notifyCounting = async (body: unknown) => {
      const calls = suite.exchanges.apiCalls.length
      let status = 0
      let text = ""
      const statements = await suite.app.statementsDuring(async () => {
        const answer = await fetch(`${suite.app.baseUrl}/pix-api/webhook/pix`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body)
        })
        text = await answer.text()
        status = answer.status
      })
      return { status, text, calls: suite.exchanges.apiCalls.slice(calls), statements }
    }
    /** An end-to-end id of the PSP's form that it never gave a pix. */
    const forged = (n: number) => `E99999999202601011200${String(n).padStart(11, "0")}`
    const returnIds = (count: number) =>
      Array.from({ length: count }, (_, n) => ({ id: `D${String(n).padStart(32, "0")}` }))

    /** An invoice paid at the PSP whose own notification was dropped: the pix the tests notify of. */
    const paidUnnotified = async () => {
      await switches({ dropNotifications: true })
      const invoice = await createPix()
      return { invoice, pix: await payAtPsp(invoice.pix.txid) }
    }

    it("asks the PSP once about a pix named a hundred times", async () => {
      const { invoice, pix } = await paidUnnotified()
      const { status, calls } = await notifyCounting({
        pix: Array.from({ length: 100 }, () => ({ endToEndId: pix.endToEndId }))
      })
      expect(status).toBe(204)
      expect(calls).toEqual(["GET /pix/… 200", "GET /cob/… 200"])
      expect((await search(invoice.secureId)).status).toBe("paid")
    })

    it("makes at most its budget of PSP calls for a hundred forged ids", async () => {
      const { status, calls } = await notifyCounting({
        pix: Array.from({ length: 100 }, (_, n) => ({ endToEndId: forged(n) }))
      })
      expect(status).toBe(204)
      expect(calls).toEqual(Array.from({ length: notificationCallBudget }, () => "GET /pix/… 404"))
      expect(suite.app.logs.some((line) => line.includes("past its budget"))).toBe(true)
    })

    it("refuses too many returns with 400 before any statement or PSP call", async () => {
      const { pix } = await paidUnnotified()
      const oneHuge = await notifyCounting({ pix: [{ endToEndId: pix.endToEndId, devolucoes: returnIds(5_000) }] })
      const manySmall = await notifyCounting({
        pix: Array.from({ length: 6 }, (_, n) => ({ endToEndId: forged(n), devolucoes: returnIds(100) }))
      })
      for (const refused of [oneHuge, manySmall]) {
        expect(refused.status).toBe(400)
        expect(refused.calls).toEqual([])
        expect(refused.statements).toEqual([])
      }
      expect(JSON.parse(oneHuge.text)).toMatchObject({
        code: "invalid_request",
        issues: [{ path: "pix.0.devolucoes", message: "must hold at most 100 returns" }]
      })
      expect(JSON.parse(manySmall.text).issues).toEqual([
        { path: "pix", message: "must name at most 500 returns (devolucoes) in all" }
      ])
    })

    it("reads nothing for the returns named under a pix the PSP does not confirm", async () => {
      const { status, calls, statements } = await notifyCounting({
        pix: [{ endToEndId: forged(1), devolucoes: returnIds(100) }]
      })
      expect(status).toBe(204)
      expect(calls).toEqual(["GET /pix/… 404"])
      expect(statements).toEqual([])
    })

    it("reads the returns named under a pix the PSP confirms in one statement, however many", async () => {
      const { invoice, pix } = await paidUnnotified()
      await notify([{ endToEndId: pix.endToEndId }])
      await searchUntil(invoice.secureId, (found) => found.status === "paid")
      const { status, statements } = await notifyCounting({
        pix: [{ endToEndId: pix.endToEndId, devolucoes: returnIds(100) }]
      })
      expect(status).toBe(204)
      // The invoice it paid, found paid already; then the returns, all at once.
      expect(statements, statements.join("\n---\n")).toHaveLength(2)
      expect(statements[1]).toMatch(/FROM refunds[\s\S]*UNION ALL[\s\S]*FROM pix_rejections/)
    })
  })

  it("answers 503 provider_unavailable and stores nothing while the PSP fails; the same key works once it is back", async () => {
    const idempotencyKey = `pix-down-${database.name}-${Date.now()}`
    const body = pixRequest({ external_ref: idempotencyKey })
    await switches({ failing: true })
    const refused = await suite.app.request("POST", "/api/v2/invoices", {
      key: suite.key,
      body,
      headers: { "idempotency-key": idempotencyKey }
    })
    expect(refused.status).toBe(503)
    expect(refused.body.code).toBe("provider_unavailable")
    expect(await suite.app.query(`SELECT id FROM invoices WHERE external_ref = '${idempotencyKey}'`)).toEqual([])

    await switches({ failing: false })
    const created = await suite.app.request("POST", "/api/v2/invoices", {
      key: suite.key,
      body,
      headers: { "idempotency-key": idempotencyKey }
    })
    expect(created.status).toBe(201)
    const replayed = await suite.app.request("POST", "/api/v2/invoices", {
      key: suite.key,
      body,
      headers: { "idempotency-key": idempotencyKey }
    })
    expect(replayed.headers.get("idempotent-replayed")).toBe("true")
    expect(replayed.body.secureId).toBe(created.body.secureId)
    expect(await suite.app.query(`SELECT id FROM invoices WHERE external_ref = '${idempotencyKey}'`)).toHaveLength(1)
  })
})

describe("pix through the local PSP, for an account whose pix key the PSP refuses charges to", () => {
  let psp: TestPsp
  let app: TestApp
  let key: string
  let exchanges: Exchanges
  const perSecond = 1

  beforeAll(async () => {
    psp = await startPsp()
    exchanges = new Exchanges(contract)
    // One database is enough: a refused charge stores nothing, and the notifications' allowance lives in the rate
    // limits' store, not in the database.
    app = await startApp(testDatabases[0]!, {
      pixProvider: pixApi(settingsOf(psp, { pixKey: "someone-else@example.com" }), exchanges),
      pixNotificationCallsPerSecond: perSecond
    })
    const { company } = await app.registerCompany()
    key = (await app.createKey(company.id, "test")).secretKey
  })
  afterEach(() => {
    expect(contract.problems).toEqual([])
  })
  afterAll(async () => {
    await app?.stop()
    await psp?.stop()
  })

  it("answers a charge the PSP refuses 422 unprocessable with its reason, stores nothing, and repeats that", async () => {
    const idempotencyKey = `pix-refused-${Date.now()}`
    const create = () =>
      app.request("POST", "/api/v2/invoices", {
        key,
        body: pixRequest({ external_ref: idempotencyKey }),
        headers: { "idempotency-key": idempotencyKey }
      })
    const refused = await create()
    expect(refused.status).toBe(422)
    expect(refused.body.code).toBe("unprocessable")
    expect(refused.body.message).toMatch(
      /^the pix provider refused the charge: Cobrança inválida\. — .+ \(cob\.chave: A chave não pertence a este usuário recebedor\.\); nothing was created$/
    )
    expect(await app.query(`SELECT id FROM invoices WHERE external_ref = '${idempotencyKey}'`)).toEqual([])
    expect(exchanges.apiCalls).toEqual(["PUT /cob/… 400"])
    expect(app.logs.some((line) => line.includes('"level":"ERROR"') && line.includes("refused PUT /cob/"))).toBe(true)
    // A definite no: the repeat under its key gets the same answer, without asking the PSP again.
    const again = await create()
    expect([again.status, again.body]).toEqual([422, refused.body])
    expect(exchanges.apiCalls).toHaveLength(1)
  })

  it("holds all notifications together to one bucket: ten seconds' worth at once, then as it refills", async () => {
    const callsBefore = exchanges.apiCalls.length
    const started = performance.now()
    const statuses: Array<number> = []
    for (let notification = 0; notification < 5; notification++) {
      const pix = Array.from({ length: 10 }, (_, n) => ({
        endToEndId: `E99999999202601011200${String(notification * 10 + n).padStart(11, "0")}`
      }))
      const answer = await fetch(`${app.baseUrl}/pix-api/webhook/pix`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pix })
      })
      statuses.push(answer.status)
    }
    // A notification the spent bucket cut short asks its PSP to send it again later, rather than be dropped.
    expect(statuses[0]).toBe(204)
    expect(statuses.at(-1)).toBe(503)
    const elapsedSeconds = (performance.now() - started) / 1000
    const calls = exchanges.apiCalls.length - callsBefore
    // Each notification alone could have made ten calls: fifty. The bucket holds them to its burst and its refill.
    expect(calls).toBeLessThanOrEqual(10 * perSecond + Math.ceil(elapsedSeconds * perSecond))
    expect(calls).toBeGreaterThanOrEqual(10 * perSecond)
    expect(app.logs.some((line) => line.includes("past the provider calls allowed to them all"))).toBe(true)
  })
})
