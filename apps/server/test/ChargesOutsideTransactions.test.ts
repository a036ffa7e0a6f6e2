// No call to a provider inside a database transaction or while a lock is held (issue 16): a card charge is
// recorded, sent to the acquirer with nothing held, and settled afterwards. An acquirer that takes its time delays no
// other money move of the company, nor anything else, however many charges wait on it. A charge whose answer was lost
// is settled from what the acquirer says became of it, by a repeat of its request or by the sweep: never lost, and
// never made twice.
import { describe, expect, it } from "vitest"
import { gatedAcquirer, until } from "./support/GatedAcquirer.js"
import { appChargingThrough } from "./support/SuiteServers.js"
import { cardRequest, payAsPayer, pixRequest, statusCounts } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

/** More charges at once than the test database has connections (20): none may keep one while it waits. */
const waitingCharges = 24

describe.each(testDatabases)("card charges outside transactions on $name", (database) => {
  const acquirer = gatedAcquirer()
  const suite = appChargingThrough(database, acquirer)

  const merchant = async () => {
    const { secretKey, company } = await suite.app.registerCompany({ name: "Loja Paciente Ltda" })
    const paidPix = async (total: number) => {
      const created = await suite.app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: pixRequest({ total_price_cents: total })
      })
      const paid = await suite.app.request("POST", "/api/v2/sandbox/invoices/pay", {
        key: secretKey,
        body: { id: created.body.secureId }
      })
      expect(paid.body.status).toBe("paid")
      return paid.body
    }
    const pendingCard = async () =>
      (
        await suite.app.request("POST", "/api/v2/invoices", {
          key: secretKey,
          body: pixRequest({ method: "credit_card", total_price_cents: 20_000 })
        })
      ).body
    const createCard = (key: string, total = 10_000) =>
      suite.app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: cardRequest({}, { total_price_cents: total }),
        headers: { "idempotency-key": key }
      })
    return { secretKey, companyId: Number(company.id), paidPix, pendingCard, createCard }
  }

  it("a slow acquirer delays no refund of the same company, however many charges wait on it", async () => {
    const { secretKey, paidPix, pendingCard, createCard } = await merchant()
    // A pix sale: its money is available at once, so its refund is not refused for the balance.
    const toRefund = await paidPix(50_000)
    const pending = await pendingCard()

    acquirer.close()
    const paying = payAsPayer(suite.app, pending, "pay-slow")
    const creating = Array.from({ length: waitingCharges }, (_, n) => createCard(`create-slow-${n}`, 10_000 + n))
    await until(() => acquirer.state.waiting === waitingCharges + 1)

    // While every one of those charges waits on the acquirer: the company's money moves, its invoices and
    // balances read, and a second payment of the invoice being paid is refused instead of charging it twice.
    const refunded = await suite.app.request("POST", "/api/v2/invoices/refund", {
      key: secretKey,
      body: { id: toRefund.secureId, amount: 1_000, reason: "while the acquirer thinks" }
    })
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201)
    expect(refunded.body.status).toBe("partially_refunded")
    expect((await suite.app.request("GET", "/api/v2/company", { key: secretKey })).status).toBe(200)
    const again = await payAsPayer(suite.app, pending)
    expect(again.status).toBe(409)
    expect(again.body.message).toContain("waiting for the acquirer")
    const repeated = await payAsPayer(suite.app, pending, "pay-slow")
    expect([repeated.status, repeated.body.code]).toEqual([409, "idempotency_in_progress"])
    expect(acquirer.state.waiting).toBe(waitingCharges + 1)

    acquirer.open()
    const paid = await paying
    expect([paid.status, paid.body.status]).toEqual([200, "paid"])
    const created = await Promise.all(creating)
    expect(statusCounts(created)).toEqual({ 201: waitingCharges })
    expect(new Set(created.map((reply) => reply.body.status))).toEqual(new Set(["paid"]))
    const payment = (await suite.app.request("GET", `/api/v2/invoices?id=${pending.secureId}`, { key: secretKey })).body
    const net = [payment, ...created.map((reply) => reply.body)].reduce(
      (sum, invoice) => sum + Number(invoice.amount) - Number(invoice.fee.estimatedFee),
      0
    )
    // Every card charge waits for its receivable (SPEC 13.1); the pix refunded from was available at once (D+0), so
    // the refund took the available balance down: 50 000 − 995 − 1 000.
    const company = await suite.app.request("GET", "/api/v2/company", { key: secretKey })
    expect([company.body.balance_card, company.body.waiting_funds_card]).toEqual([0, net])
    expect([company.body.balance_pix, company.body.waiting_funds_pix]).toEqual([48_005, 0])
  })

  it("settles a create whose answer was lost from what the acquirer says, once: by its repeat, or by the sweep", async () => {
    const { secretKey, companyId, createCard } = await merchant()
    acquirer.state.loseAnswers = true
    const lost = await createCard("lost-then-repeated", 11_111)
    const swept = await createCard("lost-then-swept", 22_222)
    acquirer.state.loseAnswers = false
    expect([lost.status, swept.status]).toEqual([500, 500])
    const chargedBefore = acquirer.state.charged

    // Nothing shows of a charge not yet settled, but the charge is recorded.
    const listed = await suite.app.request("GET", "/api/v2/invoices/list", { key: secretKey })
    expect(listed.body.data).toEqual([])
    const requested = await suite.app.query(
      `SELECT reference FROM card_charges WHERE company_id = ${companyId} AND state = 'requested'`
    )
    expect(requested).toHaveLength(2)

    // The repeat asks the acquirer instead of charging again, and answers as the first run would have.
    const repeated = await createCard("lost-then-repeated", 11_111)
    expect([repeated.status, repeated.body.status, repeated.body.amount]).toEqual([201, "paid", 11_111])
    expect((await createCard("lost-then-repeated", 11_111)).headers.get("idempotent-replayed")).toBe("true")

    // The sweep leaves a charge alone until its answer is surely lost, then asks the acquirer too.
    expect(await suite.app.sweepCardChargesAt(new Date())).toBe(0)
    expect(await suite.app.sweepCardChargesAt(new Date(Date.now() + 120_000))).toBe(1)
    expect(acquirer.state.charged).toBe(chargedBefore)

    const invoices = await suite.app.request("GET", "/api/v2/invoices/list", { key: secretKey })
    expect(
      invoices.body.data.map((invoice: { amount: number; status: string }) => [invoice.amount, invoice.status])
    ).toEqual(
      expect.arrayContaining([
        [11_111, "paid"],
        [22_222, "paid"]
      ])
    )
    expect(invoices.body.data).toHaveLength(2)
    const ledger = await suite.app.query(
      `SELECT count(*)::int AS n FROM ledger_entries WHERE company_id = ${companyId} AND type = 'payment'`
    )
    expect(ledger[0]?.n).toBe(2)
    // Settled, the charges keep no copy of the invoice they were to create, nor of its payer.
    const charges = await suite.app.query(
      `SELECT state, draft IS NULL AS dropped FROM card_charges WHERE company_id = ${companyId}`
    )
    expect(charges).toEqual([
      { state: "approved", dropped: true },
      { state: "approved", dropped: true }
    ])
    const events = await suite.app.request("GET", "/api/v2/events", { key: secretKey })
    expect(events.body.data.map((event: { type: string }) => event.type).sort()).toEqual([
      "invoice.created",
      "invoice.created",
      "invoice.paid",
      "invoice.paid"
    ])
  })

  it("voids a charge the acquirer is asked about before it arrives, and a repeat charges anew", async () => {
    const { secretKey, companyId, pendingCard } = await merchant()
    const pending = await pendingCard()
    // The charge is on its way for longer than the sweep waits: the sweep asks the acquirer, which has not seen it,
    // and voids it; when it arrives, the acquirer refuses it, and the payer is told the payment was not made.
    acquirer.close()
    const late = payAsPayer(suite.app, pending, "pay-late")
    await until(() => acquirer.state.waiting === 1)
    expect(await suite.app.sweepCardChargesAt(new Date(Date.now() + 600_000))).toBe(1)
    acquirer.open()
    const reply = await late
    expect([reply.status, reply.body.code]).toEqual([503, "acquirer_unavailable"])
    expect(await suite.app.query(`SELECT state FROM card_charges WHERE company_id = ${companyId}`)).toEqual([
      { state: "void" }
    ])
    const invoice = await suite.app.request("GET", `/api/v2/invoices?id=${pending.secureId}`, { key: secretKey })
    expect([invoice.body.status, invoice.body.card_associate]).toEqual(["pending", null])

    const paid = await payAsPayer(suite.app, pending, "pay-late")
    expect([paid.status, paid.body.status]).toEqual([200, "paid"])
    const states = await suite.app.query(
      `SELECT state FROM card_charges WHERE company_id = ${companyId} ORDER BY requested_at, state`
    )
    expect(states.map((row) => row.state).sort()).toEqual(["approved", "void"])
  })
})
