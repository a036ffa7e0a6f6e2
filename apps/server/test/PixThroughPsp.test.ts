// Pix through a PSP's API Pix (issue 17): the server speaks to the local PSP of apps/pix-psp through @fatura/pix-api,
// every exchange held to the Central Bank's API Pix document. A pix invoice is a charge at the PSP; a payment there is
// notified, confirmed with the PSP and pays the invoice once; a pix of another amount pays nothing and says why; a
// notification that never came is made up by the reconciliation; refunds are returns the PSP settles later, the
// balance held meanwhile, or refuses — later, or when it is asked. What notifications and a PSP that fails cost is
// PixThroughPspCosts.test.ts's.
import { PixSettlements } from "@fatura/application"
import { Effect } from "effect"
import { hasError, isDynamicPix, parsePix } from "pix-utils"
import { beforeAll, describe, expect, it } from "vitest"
import { ApiPixContract, eventually } from "../../../packages/pix-api/test/support/LocalPsp.js"
import { localPspSuite } from "./support/PspHelpers.js"
import { testDatabases } from "./support/TestDatabases.js"

let contract: ApiPixContract

beforeAll(async () => {
  contract = await ApiPixContract.load()
})

describe.each(testDatabases)("pix through the local PSP on $name", (database) => {
  const { suite, simulator, switches, payAtPsp, createPix, search, searchUntil, eventsOf, notify, balancePix } =
    localPspSuite(database, () => contract)

  it("creates a charge at the PSP whose BR Code is a dynamic pix code, paid once by the PSP's notified pix", async () => {
    const invoice = await createPix()
    const txid = invoice.pix.txid as string
    expect(txid).toBe(invoice.secureId.replaceAll("-", ""))
    const parsed = parsePix(invoice.pix.qrCode)
    if (hasError(parsed)) expect.fail(`the BR Code does not parse: ${parsed.message}`)
    if (!isDynamicPix(parsed)) expect.fail("the BR Code is not a dynamic pix code")
    // Its location serves the charge, signed, to anyone (a payer's app has no client certificate).
    const atLocation = await simulator().send("GET", `https://${parsed.url}`, { bearer: null })
    expect(atLocation.status).toBe(200)
    const payload = JSON.parse(Buffer.from(atLocation.text.split(".")[1] ?? "", "base64url").toString())
    expect(payload).toMatchObject({ txid, valor: { original: "123.45" }, chave: suite.psp.state.credentials.pixKey })
    const before = await balancePix()

    const pix = await payAtPsp(txid)
    const paid = await searchUntil(invoice.secureId, (found) => found.status === "paid")
    expect(paid.pix.endToEndId).toBe(pix.endToEndId)
    expect(paid.financial_movements.map((entry: any) => [entry.type, entry.amount])).toEqual([
      ["payment", invoice.amount],
      ["fee", invoice.fee.estimatedFee]
    ])
    expect(await balancePix()).toBe(before + invoice.fee.netAmount)
    // The notification was confirmed with the PSP before anything was paid.
    expect(suite.exchanges.apiCalls).toEqual(expect.arrayContaining(["GET /pix/… 200", "GET /cob/… 200"]))

    // The same notification again, and a notification of a pix the PSP never received, change nothing.
    expect(
      (await notify([{ endToEndId: pix.endToEndId, txid, valor: pix.valor, horario: new Date().toISOString() }])).status
    ).toBe(204)
    expect((await notify([{ endToEndId: "E00000000202611231200abcdefghijk", txid, valor: "1.00" }])).status).toBe(204)
    const again = await search(invoice.secureId)
    expect(again.financial_movements).toEqual(paid.financial_movements)
    expect(again.timeline).toEqual(paid.timeline)
    expect((await eventsOf(invoice.secureId)).map((event) => event.type).sort()).toEqual([
      "invoice.created",
      "invoice.paid"
    ])
    expect(await balancePix()).toBe(before + invoice.fee.netAmount)
  })

  it("leaves an invoice pending when a pix of another amount arrives, and says why once", async () => {
    const invoice = await createPix()
    const pix = await payAtPsp(invoice.pix.txid, "1.00")
    const rejected = await eventually("the rejection's event", async () =>
      (await eventsOf(invoice.secureId)).find((event) => event.type === "invoice.payment_rejected")
    )
    expect(rejected.reason).toContain("R$ 1,00")
    expect(rejected.reason).toContain(pix.endToEndId)
    expect(suite.app.logs.some((line) => line.includes("pix rejected") && line.includes(pix.endToEndId))).toBe(true)
    await notify([{ endToEndId: pix.endToEndId }])
    const found = await search(invoice.secureId)
    expect(found.status).toBe("pending")
    expect(found.financial_movements).toEqual([])
    expect(
      (await eventsOf(invoice.secureId)).filter((event) => event.type === "invoice.payment_rejected")
    ).toHaveLength(1)
    // It paid nothing, so it went back to its payer whole: returned at the PSP, and known so once the PSP said it.
    const returned = await eventually("the rejected pix's return", async () => {
      const [row] = await suite.app.query(
        `SELECT return_state, amount FROM pix_rejections WHERE end_to_end_id = '${pix.endToEndId}'`
      )
      return row?.return_state === "returned" ? row : undefined
    })
    expect(Number(returned.amount)).toBe(100)
  })

  it("pays an invoice whose notification never came at the next reconciliation", async () => {
    await switches({ dropNotifications: true })
    const invoice = await createPix()
    const pix = await payAtPsp(invoice.pix.txid)
    expect((await search(invoice.secureId)).status).toBe("pending")
    const paid = await suite.app.run(Effect.flatMap(PixSettlements, (settlements) => settlements.reconcile))
    expect(paid).toBeGreaterThanOrEqual(1)
    const found = await search(invoice.secureId)
    expect(found.status).toBe("paid")
    expect(found.pix.endToEndId).toBe(pix.endToEndId)
    // A second reconciliation lists it again, and pays nothing twice.
    await suite.app.run(Effect.flatMap(PixSettlements, (settlements) => settlements.reconcile))
    expect((await search(invoice.secureId)).financial_movements).toEqual(found.financial_movements)
  })

  const paidInvoice = async () => {
    const invoice = await createPix({ total_price_cents: 10_000 })
    await payAtPsp(invoice.pix.txid)
    await searchUntil(invoice.secureId, (found) => found.status === "paid")
    return invoice
  }

  it("holds a partial refund while the PSP returns it, then completes the rest when confirmed", async () => {
    const invoice = await paidInvoice()
    const before = await balancePix()
    const asked = await suite.app.request("POST", "/api/v2/invoices/refund", {
      key: suite.key,
      body: { id: invoice.secureId, amount: 4_000, reason: "one item back" }
    })
    expect(asked.status).toBe(201)
    expect(asked.body.status).toBe("paid")
    expect(asked.body.refunds).toEqual([expect.objectContaining({ amount: 4_000, status: "pending" })])
    expect(asked.body.refundedAmount).toBe(0)
    expect(await balancePix()).toBe(before - 4_000)
    // What a pending refund holds counts against what is left.
    const tooMuch = await suite.app.request("POST", "/api/v2/invoices/refund", {
      key: suite.key,
      body: { id: invoice.secureId, amount: 6_001 }
    })
    expect(tooMuch.status).toBe(422)
    expect(tooMuch.body.code).toBe("refund_exceeds_remaining")
    // The pending refund's event says why the status stays: the return it waits for, and what it holds.
    const pending = (await eventsOf(invoice.secureId)).find((event) => event.type === "invoice.refund_pending")
    expect(pending?.reason).toMatch(
      /^the refund of R\$ 40,00 is a return of the pix E\w{31}, asked of the pix provider/
    )

    const partial = await searchUntil(invoice.secureId, (found) => found.status === "partially_refunded")
    expect(partial.refundedAmount).toBe(4_000)
    expect(partial.refunds).toEqual([expect.objectContaining({ amount: 4_000, status: "succeeded" })])

    const rest = await suite.app.request("POST", "/api/v2/invoices/refund", {
      key: suite.key,
      body: { id: invoice.secureId }
    })
    expect(rest.status).toBe(201)
    const refunded = await searchUntil(invoice.secureId, (found) => found.status === "refunded")
    expect(refunded.refundedAmount).toBe(10_000)
    expect(
      refunded.financial_movements.filter((entry: any) => entry.type === "refund").map((entry: any) => entry.amount)
    ).toEqual([4_000, 6_000])
    expect(await balancePix()).toBe(before - 10_000)
    expect((await eventsOf(invoice.secureId)).map((event) => event.type).sort()).toEqual([
      "invoice.created",
      "invoice.paid",
      "invoice.partially_refunded",
      "invoice.refund_pending",
      "invoice.refund_pending",
      "invoice.refunded"
    ])
  })

  it("gives back what a refund held when the PSP refuses it, and says why", async () => {
    const invoice = await paidInvoice()
    const before = await balancePix()
    await switches({ refuseRefunds: true })
    const asked = await suite.app.request("POST", "/api/v2/invoices/refund", {
      key: suite.key,
      body: { id: invoice.secureId }
    })
    expect(asked.status).toBe(201)
    const failed = await searchUntil(invoice.secureId, (found) => found.refunds[0]?.status === "failed")
    expect(failed.status).toBe("paid")
    expect(failed.refundedAmount).toBe(0)
    expect(failed.refunds[0].failure_reason).toMatch(/refused/)
    expect(
      failed.financial_movements.slice(-2).map((entry: any) => [entry.type, entry.direction, entry.amount])
    ).toEqual([
      ["refund", "debit", 10_000],
      ["refund_reversal", "credit", 10_000]
    ])
    expect(await balancePix()).toBe(before)
    const events = await eventsOf(invoice.secureId)
    expect(events.find((event) => event.type === "invoice.refund_failed")?.reason).toMatch(/refused/)
    // Refused, it holds nothing: the whole amount may be refunded again.
    await switches({ refuseRefunds: false })
    expect(
      (await suite.app.request("POST", "/api/v2/invoices/refund", { key: suite.key, body: { id: invoice.secureId } }))
        .status
    ).toBe(201)
    await searchUntil(invoice.secureId, (found) => found.status === "refunded")
  })

  it("ends a refund the PSP refuses when it is asked: failed with the PSP's reason, given back, not asked again", async () => {
    const invoice = await paidInvoice()
    const before = await balancePix()
    await switches({ refuseRefundRequests: true })
    const returnCalls = () => suite.exchanges.apiCalls.filter((call) => call.includes("/devolucao/"))
    const callsBefore = returnCalls().length
    const asked = await suite.app.request("POST", "/api/v2/invoices/refund", {
      key: suite.key,
      body: { id: invoice.secureId, amount: 4_000 }
    })
    expect(asked.status).toBe(201)
    expect([asked.body.status, asked.body.refundedAmount]).toEqual(["paid", 0])
    expect(asked.body.refunds).toEqual([expect.objectContaining({ amount: 4_000, status: "failed" })])
    const reason = asked.body.refunds[0].failure_reason as string
    expect(reason).toMatch(
      /^the pix provider refused the refund: Devolução inválida\. — .+ \(e2eid: O prazo de 90 dias para devolver este pix terminou/
    )
    expect(
      asked.body.financial_movements.slice(-2).map((entry: any) => [entry.type, entry.direction, entry.amount])
    ).toEqual([
      ["refund", "debit", 4_000],
      ["refund_reversal", "credit", 4_000]
    ])
    expect(await balancePix()).toBe(before)
    const events = await eventsOf(invoice.secureId)
    expect(events.find((event) => event.type === "invoice.refund_failed")?.reason).toBe(reason)
    // Where it stands, asked for and refused, and where it stands after all (a refusal of a repeat would find it
    // made): three calls, and no more, even once it would be stale for the sweep.
    expect(returnCalls().slice(callsBefore)).toEqual([
      "GET /pix/…/devolucao/… 404",
      "PUT /pix/…/devolucao/… 400",
      "GET /pix/…/devolucao/… 404"
    ])
    await suite.app.query(
      `UPDATE refunds SET created_at = created_at - interval '1 hour' WHERE invoice_id = ${Number(asked.body.id)}`
    )
    await suite.app.run(Effect.flatMap(PixSettlements, (settlements) => settlements.sweepReturns))
    expect(returnCalls()).toHaveLength(callsBefore + 3)

    // It holds nothing: the whole invoice may be refunded again.
    await switches({ refuseRefundRequests: false })
    const whole = await suite.app.request("POST", "/api/v2/invoices/refund", {
      key: suite.key,
      body: { id: invoice.secureId }
    })
    expect(whole.status).toBe(201)
    const refunded = await searchUntil(invoice.secureId, (found) => found.status === "refunded")
    expect(refunded.refundedAmount).toBe(10_000)
    expect(await balancePix()).toBe(before - 10_000)
  })

  it("closes the return of a pix that paid nothing as refused when the PSP refuses it, with an error for the operator", async () => {
    await switches({ refuseRefundRequests: true })
    const invoice = await createPix()
    const pix = await payAtPsp(invoice.pix.txid, "1.00")
    await eventually("the rejected pix's return to be closed", async () => {
      const [row] = await suite.app.query(
        `SELECT return_state FROM pix_rejections WHERE end_to_end_id = '${pix.endToEndId}'`
      )
      return row?.return_state === "refused" ? row : undefined
    })
    expect(
      suite.app.logs.some(
        (line) =>
          line.includes('"level":"ERROR"') &&
          line.includes("could not be returned to its payer") &&
          line.includes(pix.endToEndId)
      )
    ).toBe(true)
  })
})
