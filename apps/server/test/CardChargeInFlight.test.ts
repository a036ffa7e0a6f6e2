// Issue 24: the sandbox `expire` racing a payer's card payment. It used to answer `200 expired` while the charge was
// at the acquirer, and the charge's answer then wrote `paid` over `expired` (timeline pending > expired > paid, both
// events sent): on Postgres in half the rounds; on PGlite never with the sandbox acquirer, which answers without
// letting the event loop turn, so the payment's record, charge and settlement ran back to back on the one
// connection. Now a pending card invoice whose charge is in flight moves by that charge's answer alone, and a charge
// answered when its invoice is no longer pending pays nothing and goes back to the card.
import { describe, expect, it } from "vitest"
import { gatedAcquirer, until } from "./support/GatedAcquirer.js"
import { appChargingThrough } from "./support/SuiteServers.js"
import { payAsPayer, pixRequest, type Reply } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

const inFlight = "cannot expire an invoice whose card payment is waiting for the acquirer's answer"

describe.each(testDatabases)("a payer's card payment racing the sandbox expire on $name", (database) => {
  const acquirer = gatedAcquirer()
  const suite = appChargingThrough(database, acquirer)

  const merchant = async () => {
    const { secretKey } = await suite.app.registerCompany({ name: "Loja Apressada Ltda" })
    const pendingCard = async (total: number) => {
      // No card data: the invoice waits, pending, for its payer (SPEC 4.7).
      const reply = await suite.app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: pixRequest({ method: "credit_card", total_price_cents: total })
      })
      expect([reply.status, reply.body.status]).toEqual([201, "pending"])
      return reply.body
    }
    const pay = (invoice: { secureId: string; invoice: { token_checkout: string } }) => payAsPayer(suite.app, invoice)
    const expire = (invoice: { secureId: string }) =>
      suite.app.request("POST", "/api/v2/sandbox/invoices/expire", { key: secretKey, body: { id: invoice.secureId } })
    return { pendingCard, pay, expire }
  }

  /**
   * What is stored of an invoice and of its card charges, with what the acquirer holds of each charge: how it
   * answered it, and whether it gave it back.
   */
  const storedOf = async (invoiceId: number) => {
    const [invoice] = await suite.app.query(`SELECT status FROM invoices WHERE id = ${invoiceId}`)
    const timeline = await suite.app.query(
      `SELECT status FROM invoice_timeline WHERE invoice_id = ${invoiceId} ORDER BY id`
    )
    const events = await suite.app.query(
      `SELECT type FROM events WHERE invoice_id = ${invoiceId} ORDER BY created_at, type`
    )
    const ledger = await suite.app.query(`SELECT type FROM ledger_entries WHERE invoice_id = ${invoiceId} ORDER BY id`)
    const charges = await suite.app.query(
      `SELECT reference, state, reversal FROM card_charges WHERE invoice_id = ${invoiceId}`
    )
    return {
      status: invoice?.status,
      timeline: timeline.map((row) => row.status),
      events: events.map((row) => row.type),
      ledger: ledger.map((row) => row.type),
      charges: charges.map((row) => ({
        state: row.state,
        reversal: row.reversal,
        atTheAcquirer: acquirer.charges.get(String(row.reference))?._tag ?? "unknown",
        givenBack: acquirer.reversals.has(String(row.reference))
      }))
    }
  }

  /** Every round ends in one of these: the payment won, or the expiry did and no card was charged for it. */
  const expectOneOfTheAllowedEndings = async (invoiceId: number, paid: Reply, expired: Reply) => {
    const stored = await storedOf(invoiceId)
    const seen = JSON.stringify({ paid: [paid.status, paid.body], expired: [expired.status, expired.body], stored })
    if (stored.status === "paid") {
      expect(paid.status, seen).toBe(200)
      expect([expired.status, expired.body.code], seen).toEqual([409, "invalid_state"])
      expect([inFlight, "cannot expire an invoice that is paid"], seen).toContain(expired.body.message)
      expect(stored, seen).toEqual({
        status: "paid",
        timeline: ["pending", "paid"],
        events: ["invoice.created", "invoice.paid"],
        ledger: ["payment", "fee"],
        charges: [{ state: "approved", reversal: null, atTheAcquirer: "Approved", givenBack: false }]
      })
      return "paid"
    }
    expect([expired.status, expired.body.status], seen).toEqual([200, "expired"])
    expect([paid.status, paid.body.code], seen).toEqual([409, "invalid_state"])
    expect({ ...stored, charges: [] }, seen).toEqual({
      status: "expired",
      timeline: ["pending", "expired"],
      events: ["invoice.created", "invoice.expired"],
      ledger: [],
      charges: []
    })
    // A charge made for it anyway is given back: the acquirer keeps none of the payer's money.
    for (const charge of stored.charges) {
      if (charge.atTheAcquirer === "Approved") expect(charge, seen).toMatchObject({ givenBack: true })
    }
    return "expired"
  }

  it("expire while the charge waits at the acquirer: 409, and the charge's answer pays the invoice", async () => {
    const { pendingCard, pay, expire } = await merchant()
    const invoice = await pendingCard(30_000)
    acquirer.close()
    const paying = pay(invoice)
    await until(() => acquirer.state.waiting === 1)

    const refused = await expire(invoice)
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([409, "invalid_state", inFlight])

    acquirer.open()
    const paid = await paying
    expect([paid.status, paid.body.status]).toEqual([200, "paid"])
    expect(await expectOneOfTheAllowedEndings(Number(invoice.id), paid, refused)).toBe("paid")
  })

  it("30 rounds of the payer's pay and the sandbox expire at once: each ends in one allowed timeline", async () => {
    const { pendingCard, pay, expire } = await merchant()
    for (let round = 0; round < 30; round++) {
      const invoice = await pendingCard(31_000 + round)
      // Both leave together, or one of them a turn of the event loop after the other: the expire's transaction
      // then meets the payment before, during or after its charge.
      const aTurnLater = () => new Promise((resolve) => setImmediate(resolve))
      const [paid, expired] = await Promise.all([
        (round % 3 === 2 ? aTurnLater() : Promise.resolve()).then(() => pay(invoice)),
        (round % 3 === 1 ? aTurnLater() : Promise.resolve()).then(() => expire(invoice))
      ])
      await expectOneOfTheAllowedEndings(Number(invoice.id), paid, expired)
    }
  })
})
