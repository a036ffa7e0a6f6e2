// SPEC 4.8 and 8: events, signed postbacks with retries on the schedule, manual retries, secret rolls, and
// where postbacks may go — against a real local receiver, with time injected (no test sleeps).

import { Postback } from "@fatura/api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dueAt, type Receiver, startReceiver } from "./support/Receiver.js"
import { cardRequest, pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

describe.each(testDatabases)("postbacks on $name", (database) => {
  let app: TestApp
  let receiver: Receiver

  beforeAll(async () => {
    app = await startApp(database)
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await app.stop()
    await receiver.stop()
  })

  const deliveriesOf = async (key: string, invoiceId: string) =>
    (await app.request("GET", `/api/v2/webhooks/deliveries?invoice_id=${invoiceId}`, { key })).body.data as Array<{
      id: number
      event_id: string
      status: string
      attempts: number
      last_status_code: number | null
      last_error: string | null
      next_attempt_at: string | null
    }>

  const attemptTimes = async (deliveryId: number) =>
    (
      await app.query(
        `SELECT fatura_ts(started_at) AS started FROM delivery_attempts WHERE delivery_id = ${deliveryId} ORDER BY id`
      )
    ).map((row) => Date.parse(String(row.started)))

  it("retries a failing delivery on the schedule, with the same event id and a valid signature each time", async () => {
    const { secretKey, webhookSecret } = await app.registerCompany()
    receiver.answer("/flaky", [500, 500, 503, 404, 500])
    const invoice = (
      await app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: pixRequest({ postback_url: receiver.url("/flaky") })
      })
    ).body
    let now = dueAt(invoice.createdAt)
    for (let attempt = 1; attempt <= 6; attempt++) {
      await app.deliverPostbacksAt(now)
      const [delivery] = await deliveriesOf(secretKey, invoice.secureId)
      expect(delivery!.attempts).toBe(attempt)
      if (attempt < 6) {
        expect(delivery).toMatchObject({ status: "pending", last_status_code: [500, 500, 503, 404, 500][attempt - 1] })
        const next = dueAt(delivery!.next_attempt_at!)
        // Nothing is sent before its time.
        await app.deliverPostbacksAt(new Date(next.getTime() - 1_001))
        expect((await deliveriesOf(secretKey, invoice.secureId))[0]!.attempts).toBe(attempt)
        now = next
      } else {
        expect(delivery).toMatchObject({ status: "succeeded", last_status_code: 200, next_attempt_at: null })
      }
    }
    const arrivals = receiver.at("/flaky")
    expect(arrivals).toHaveLength(6)
    const [delivery] = await deliveriesOf(secretKey, invoice.secureId)
    for (const arrival of arrivals) {
      expect(arrival.headers["x-fatura-event-id"]).toBe(delivery!.event_id)
      expect(arrival.headers["x-fatura-event-type"]).toBe("invoice.created")
      expect(arrival.headers["content-type"]).toBe("application/json")
      expect(arrival.headers["user-agent"]).toMatch(/^Fatura-Postback\//)
      expect(arrival.body).toBe(arrivals[0]!.body)
      const signedAt = Number(/t=(\d+)/.exec(String(arrival.headers["x-fatura-signature"]))![1])
      const event = await Postback.verifyPostback({
        body: arrival.body,
        signature: String(arrival.headers["x-fatura-signature"]),
        secret: webhookSecret,
        now: signedAt
      })
      expect(event).toMatchObject({ id: delivery!.event_id, type: "invoice.created", livemode: false })
      expect("secureId" in event.data && event.data.secureId).toBe(invoice.secureId)
    }
    const times = await attemptTimes(delivery!.id)
    const gaps = times.slice(1).map((time, index) => (time - times[index]!) / 1000)
    for (const [index, base] of [60, 300, 1_800, 7_200, 21_600].entries()) {
      expect(gaps[index]).toBeGreaterThanOrEqual(base * 0.9)
      // The injected clock stands 1 ms past each due instant.
      expect(gaps[index]).toBeLessThanOrEqual(base * 1.1 + 0.01)
    }
  })

  it("gives up after 9 attempts, and sends again when retried by hand", async () => {
    const { secretKey } = await app.registerCompany()
    receiver.answer(
      "/down",
      Array.from({ length: 10 }, () => 503)
    )
    const invoice = (
      await app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: pixRequest({ postback_url: receiver.url("/down") })
      })
    ).body
    let now = dueAt(invoice.createdAt)
    for (let attempt = 1; attempt <= 9; attempt++) {
      await app.deliverPostbacksAt(now)
      const [delivery] = await deliveriesOf(secretKey, invoice.secureId)
      expect(delivery!.attempts).toBe(attempt)
      if (delivery!.next_attempt_at !== null) now = dueAt(delivery!.next_attempt_at)
    }
    const [failed] = await deliveriesOf(secretKey, invoice.secureId)
    expect(failed).toMatchObject({ status: "failed", attempts: 9, last_status_code: 503, next_attempt_at: null })
    await app.deliverPostbacksAt(new Date(now.getTime() + 30 * 86_400_000))
    expect(receiver.at("/down")).toHaveLength(9)

    const retried = await app.request("POST", `/api/v2/webhooks/deliveries/${failed!.id}/retry`, { key: secretKey })
    expect(retried.status).toBe(202)
    expect((await deliveriesOf(secretKey, invoice.secureId))[0]!.status).toBe("pending")
    await app.deliverPostbacksAt(new Date(Date.now() + 1_000))
    expect(receiver.at("/down")).toHaveLength(10)
    expect(receiver.at("/down")[9]!.headers["x-fatura-event-id"]).toBe(failed!.event_id)
  })

  it("does not follow a redirect: a 3xx answer is a failed attempt", async () => {
    const { secretKey } = await app.registerCompany()
    receiver.answer("/moved", [302])
    const invoice = (
      await app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: pixRequest({ postback_url: receiver.url("/moved") })
      })
    ).body
    await app.deliverPostbacksAt(dueAt(invoice.createdAt))
    const [delivery] = await deliveriesOf(secretKey, invoice.secureId)
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, last_status_code: 302 })
    expect(receiver.at("/moved")).toHaveLength(1)
    expect(receiver.at("/redirected")).toHaveLength(0)
  })

  it("does not let another company retry or see a delivery", async () => {
    const owner = await app.registerCompany()
    const other = await app.registerCompany()
    const invoice = (
      await app.request("POST", "/api/v2/invoices", {
        key: owner.secretKey,
        body: pixRequest({ postback_url: receiver.url("/owner") })
      })
    ).body
    const [delivery] = await deliveriesOf(owner.secretKey, invoice.secureId)
    const retry = await app.request("POST", `/api/v2/webhooks/deliveries/${delivery!.id}/retry`, {
      key: other.secretKey
    })
    expect(retry.status).toBe(404)
    const byEvent = await app.request("GET", `/api/v2/webhooks/deliveries?event_id=${delivery!.event_id}`, {
      key: other.secretKey
    })
    // Another company's event answers like an unknown one, and so does the owner's own with a key of the other mode.
    expect(byEvent.status).toBe(404)
    expect(byEvent.body.code).toBe("not_found")
    const unknownEvent = await app.request("GET", `/api/v2/webhooks/deliveries?event_id=evt_${crypto.randomUUID()}`, {
      key: other.secretKey
    })
    expect(unknownEvent.body).toEqual(byEvent.body)
    const ownerLive = (await app.createKey(owner.company.id, "live")).secretKey
    const otherMode = await app.request("GET", `/api/v2/webhooks/deliveries?event_id=${delivery!.event_id}`, {
      key: ownerLive
    })
    expect(otherMode.status).toBe(404)
    const own = await app.request("GET", `/api/v2/webhooks/deliveries?event_id=${delivery!.event_id}`, {
      key: owner.secretKey
    })
    expect(own.body.data.map((found: { id: number }) => found.id)).toEqual([delivery!.id])
    const byInvoice = await app.request("GET", `/api/v2/webhooks/deliveries?invoice_id=${invoice.secureId}`, {
      key: other.secretKey
    })
    expect(byInvoice.status).toBe(404)
  })

  it("signs with both secrets while a rolled secret overlaps, and with the new one after 24 h", async () => {
    const { secretKey, webhookSecret } = await app.registerCompany()
    const rolled = await app.request("POST", "/api/v2/webhooks/secret/roll", { key: secretKey })
    expect(rolled.status).toBe(200)
    const newSecret: string = rolled.body.secret
    expect(newSecret).toMatch(/^whsec_/)
    expect(newSecret).not.toBe(webhookSecret)

    const during = (
      await app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: pixRequest({ postback_url: receiver.url("/roll") })
      })
    ).body
    await app.deliverPostbacksAt(dueAt(during.createdAt))
    const [arrival] = receiver.at("/roll")
    const header = String(arrival!.headers["x-fatura-signature"])
    expect(header.match(/v1=/g)).toHaveLength(2)
    const signedAt = Number(/t=(\d+)/.exec(header)![1])
    for (const secret of [webhookSecret, newSecret]) {
      await expect(
        Postback.verifyPostback({ body: arrival!.body, signature: header, secret, now: signedAt })
      ).resolves.toBeDefined()
    }

    const later = (
      await app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: pixRequest({ postback_url: receiver.url("/roll-later") })
      })
    ).body
    const dayLater = new Date(Date.parse(later.createdAt) + 25 * 3_600_000)
    await app.deliverPostbacksAt(dayLater)
    const [lateArrival] = receiver.at("/roll-later")
    const lateHeader = String(lateArrival!.headers["x-fatura-signature"])
    expect(lateHeader.match(/v1=/g)).toHaveLength(1)
    const lateAt = Number(/t=(\d+)/.exec(lateHeader)![1])
    await expect(
      Postback.verifyPostback({ body: lateArrival!.body, signature: lateHeader, secret: newSecret, now: lateAt })
    ).resolves.toBeDefined()
    await expect(
      Postback.verifyPostback({ body: lateArrival!.body, signature: lateHeader, secret: webhookSecret, now: lateAt })
    ).rejects.toMatchObject({ reason: "signature_mismatch" })
  })

  it("records an event per status change and lists them newest first, by type and by invoice", async () => {
    const { secretKey } = await app.registerCompany()
    const paid = (await app.request("POST", "/api/v2/invoices", { key: secretKey, body: cardRequest() })).body
    const pending = (await app.request("POST", "/api/v2/invoices", { key: secretKey, body: pixRequest() })).body
    const all = await app.request("GET", "/api/v2/events", { key: secretKey })
    expect(all.status).toBe(200)
    expect(all.body.data.map((event: { type: string }) => event.type)).toEqual([
      "invoice.created",
      "invoice.paid",
      "invoice.created"
    ])
    expect(all.body.data[0].data.secureId).toBe(pending.secureId)
    const page = await app.request("GET", "/api/v2/events?limit=2", { key: secretKey })
    expect(page.body).toMatchObject({ has_more: true })
    const next = await app.request("GET", `/api/v2/events?limit=2&starting_after=${page.body.next_cursor}`, {
      key: secretKey
    })
    expect(next.body.data).toHaveLength(1)
    expect(next.body.has_more).toBe(false)
    const unknownCursor = await app.request("GET", `/api/v2/events?starting_after=evt_${crypto.randomUUID()}`, {
      key: secretKey
    })
    expect(unknownCursor.status).toBe(404)
    expect(unknownCursor.body.code).toBe("not_found")
    const byType = await app.request("GET", "/api/v2/events?type=invoice.paid", { key: secretKey })
    expect(byType.body.data.map((event: { data: { secureId: string } }) => event.data.secureId)).toEqual([
      paid.secureId
    ])
    for (const id of [paid.secureId, String(paid.id)]) {
      const byInvoice = await app.request("GET", `/api/v2/events?invoice_id=${id}`, { key: secretKey })
      expect(byInvoice.body.data).toHaveLength(2)
    }
    const noPostback = await app.request("GET", `/api/v2/webhooks/deliveries?invoice_id=${paid.secureId}`, {
      key: secretKey
    })
    expect(noPostback.body.data).toEqual([])
    const neither = await app.request("GET", "/api/v2/webhooks/deliveries", { key: secretKey })
    expect(neither.status).toBe(400)
  })

  it("lists an event recorded before Company Infos had bank_code, as it was recorded", async () => {
    const { secretKey } = await app.registerCompany()
    const invoice = (await app.request("POST", "/api/v2/invoices", { key: secretKey, body: pixRequest() })).body
    // As an earlier version stored it: the invoice's company without the field added since.
    await app.query(
      `UPDATE events SET data = data #- '{enterprise,bank_code}' WHERE invoice_id = ${Number(invoice.id)}`
    )
    const listed = await app.request("GET", `/api/v2/events?invoice_id=${invoice.secureId}`, { key: secretKey })
    expect(listed.status).toBe(200)
    expect(listed.body.data).toHaveLength(1)
    expect(listed.body.data[0].data.enterprise).not.toHaveProperty("bank_code")
    expect(listed.body.data[0].data.enterprise.bank_name).toBe("")
  })

  describe("where postbacks may go", () => {
    const refused = [
      "http://127.0.0.1:9/hook",
      "http://10.0.0.1/hook",
      "http://192.168.0.10/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hook",
      "http://localhost:9/hook"
    ]

    it.each(refused)("refuses %s at creation in live mode", async (url) => {
      const registered = await app.registerCompany()
      const live = await app.createKey(registered.company.id, "live")
      const reply = await app.request("POST", "/api/v2/invoices", {
        key: live.secretKey,
        body: pixRequest({ postback_url: url })
      })
      expect(reply.status).toBe(422)
      expect(reply.body.code).toBe("postback_url_not_allowed")
    })

    it("refuses private targets in test mode too when FATURA_POSTBACK_ALLOW_PRIVATE=false", async () => {
      const strict = await startApp(database, { allowPrivatePostbacks: false })
      try {
        const { secretKey } = await strict.registerCompany()
        const reply = await strict.request("POST", "/api/v2/invoices", {
          key: secretKey,
          body: pixRequest({ postback_url: "http://127.0.0.1:9/hook" })
        })
        expect(reply.status).toBe(422)
        expect(reply.body.code).toBe("postback_url_not_allowed")
      } finally {
        await strict.stop()
      }
    })

    it("allows private targets in test mode by default", async () => {
      const { secretKey } = await app.registerCompany()
      const reply = await app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: pixRequest({ postback_url: "http://127.0.0.1:9/hook" })
      })
      expect(reply.status).toBe(201)
    })

    it.each(["127.0.0.1", "localhost"])(
      "checks again at send time, and never connects to a target that turned private (%s)",
      async (host) => {
        const registered = await app.registerCompany()
        const live = await app.createKey(registered.company.id, "live")
        const invoice = (
          await app.request("POST", "/api/v2/invoices", {
            key: live.secretKey,
            body: pixRequest({ postback_url: "http://93.184.215.14/hook" })
          })
        ).body
        expect(invoice.postbackUrl).toBe("http://93.184.215.14/hook")
        // As if the host now pointed at the merchant's neighbour on loopback.
        const rebound = receiver.url(`/rebound-${host}`).replace("127.0.0.1", host)
        await app.query(
          `UPDATE deliveries SET url = '${rebound}' WHERE event_id IN (SELECT id FROM events WHERE invoice_id = ${Number(invoice.id)})`
        )
        await app.deliverPostbacksAt(dueAt(invoice.createdAt))
        const [delivery] = await deliveriesOf(live.secretKey, invoice.secureId)
        expect(delivery).toMatchObject({ status: "pending", last_status_code: null, attempts: 1 })
        expect(delivery!.last_error).toMatch(/^not sent: /)
        expect(receiver.at(`/rebound-${host}`)).toHaveLength(0)
      }
    )
  })
})
