// SPEC 13.5: webhook endpoints over HTTP — created, listed and deleted in the key's mode, at most ten, their URLs held
// to 8.4 — and every event sent to each endpoint that subscribes to its type, signed like a postback, once per URL,
// to a real local receiver.
import { Postback } from "@fatura/api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dueAt, type Receiver, startReceiver } from "./support/Receiver.js"
import { pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

describe.each(testDatabases)("webhook endpoints on $name", (database) => {
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

  const endpoints = "/api/v2/webhooks/endpoints"
  const create = (key: string, body: unknown) => app.request("POST", endpoints, { key, body })

  it("creates an endpoint in the key's mode, lists the mode's oldest first, and deletes one once", async () => {
    const { secretKey, company } = await app.registerCompany()
    const live = await app.createKey(company.id, "live")
    const other = await app.registerCompany()

    const first = await create(secretKey, { url: "https://hooks.loja.example/a", events: ["invoice.paid", "*"] })
    expect(first.status).toBe(201)
    expect(first.body).toEqual({
      id: expect.stringMatching(/^we_[0-9a-f-]{36}$/),
      url: "https://hooks.loja.example/a",
      events: ["invoice.paid", "*"],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    })
    const second = (await create(secretKey, { url: "https://hooks.loja.example/b", events: ["invoice.*"] })).body
    const liveOne = (await create(live.secretKey, { url: "https://93.184.215.14/hook", events: ["*"] })).body

    expect((await app.request("GET", endpoints, { key: secretKey })).body).toEqual({ data: [first.body, second] })
    expect((await app.request("GET", endpoints, { key: live.secretKey })).body).toEqual({ data: [liveOne] })
    expect((await app.request("GET", endpoints, { key: other.secretKey })).body).toEqual({ data: [] })

    // Another company's endpoint, or the other mode's, is as unknown as one that never was.
    for (const key of [other.secretKey, live.secretKey]) {
      const reply = await app.request("DELETE", `${endpoints}/${first.body.id}`, { key })
      expect([reply.status, reply.body.code]).toEqual([404, "not_found"])
    }
    const deleted = await app.request("DELETE", `${endpoints}/${first.body.id}`, { key: secretKey })
    expect(deleted.status).toBe(204)
    const again = await app.request("DELETE", `${endpoints}/${first.body.id}`, { key: secretKey })
    expect(again.status).toBe(404)
    expect((await app.request("GET", endpoints, { key: secretKey })).body).toEqual({ data: [second] })
  })

  it("refuses what it cannot subscribe: no events, an unknown event, a URL that is not http(s), a bad id", async () => {
    const { secretKey } = await app.registerCompany()
    for (const [body, path] of [
      [{ url: "https://hooks.loja.example/a", events: [] }, "events"],
      [{ url: "https://hooks.loja.example/a", events: ["invoice.paid", "invoice.shipped"] }, "events.1"],
      [{ url: "ftp://hooks.loja.example/a", events: ["*"] }, "url"],
      [{ url: "", events: ["*"] }, "url"],
      [{ events: ["*"] }, "url"]
    ] as const) {
      const reply = await create(secretKey, body)
      expect([reply.status, reply.body.code], JSON.stringify(body)).toEqual([400, "invalid_request"])
      expect(reply.body.issues.map((issue: { path: string }) => issue.path)).toContain(path)
    }
    const badId = await app.request("DELETE", `${endpoints}/123`, { key: secretKey })
    expect([badId.status, badId.body.code]).toEqual([400, "invalid_request"])
    expect((await app.request("GET", endpoints, { key: secretKey })).body).toEqual({ data: [] })
  })

  it("holds a company to ten endpoints in each mode", async () => {
    const { secretKey, company } = await app.registerCompany()
    for (let n = 0; n < 10; n++) {
      expect((await create(secretKey, { url: `https://hooks.loja.example/${n}`, events: ["*"] })).status).toBe(201)
    }
    const refused = await create(secretKey, { url: "https://hooks.loja.example/10", events: ["*"] })
    expect(refused.status).toBe(422)
    expect(refused.body).toMatchObject({ code: "unprocessable", message: expect.stringMatching(/at most 10/) })
    const live = await app.createKey(company.id, "live")
    expect((await create(live.secretKey, { url: "https://93.184.215.14/hook", events: ["*"] })).status).toBe(201)
  })

  it.each(["http://127.0.0.1:9/hook", "http://169.254.169.254/latest/meta-data", "http://localhost:9/hook"])(
    "refuses %s in live mode, as a postback URL is refused",
    async (url) => {
      const registered = await app.registerCompany()
      const live = await app.createKey(registered.company.id, "live")
      const reply = await create(live.secretKey, { url, events: ["*"] })
      expect(reply.status).toBe(422)
      expect(reply.body).toMatchObject({ code: "postback_url_not_allowed", message: expect.stringMatching(/^url: /) })
    }
  )

  it("sends each event to every endpoint subscribed to it, signed, once per URL, and nothing after a delete", async () => {
    const { secretKey, webhookSecret } = await app.registerCompany()
    const all = (await create(secretKey, { url: receiver.url("/all"), events: ["*"] })).body
    const paid = (await create(secretKey, { url: receiver.url("/paid"), events: ["invoice.paid"] })).body
    // The invoice's own postback URL is an endpoint's too: it is posted to once per event.
    const invoice = (
      await app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: pixRequest({ postback_url: receiver.url("/all") })
      })
    ).body
    const paidInvoice = (
      await app.request("POST", "/api/v2/sandbox/invoices/pay", { key: secretKey, body: { id: invoice.secureId } })
    ).body
    await app.deliverPostbacksAt(dueAt(paidInvoice.updatedAt))

    const types = (path: string) => receiver.at(path).map((arrival) => arrival.headers["x-fatura-event-type"])
    expect(types("/all").sort()).toEqual(["invoice.created", "invoice.paid"])
    expect(types("/paid")).toEqual(["invoice.paid"])
    for (const arrival of [...receiver.at("/all"), ...receiver.at("/paid")]) {
      const signature = String(arrival.headers["x-fatura-signature"])
      const event = await Postback.verifyPostback({
        body: arrival.body,
        signature,
        secret: webhookSecret,
        now: Number(/t=(\d+)/.exec(signature)![1])
      })
      expect(event).toMatchObject({ id: arrival.headers["x-fatura-event-id"], data: { secureId: invoice.secureId } })
    }
    const deliveries = (
      await app.request("GET", `/api/v2/webhooks/deliveries?invoice_id=${invoice.secureId}`, { key: secretKey })
    ).body.data
    expect(
      deliveries.map((delivery: { endpoint_id: string | null; status: string }) => [
        delivery.endpoint_id,
        delivery.status
      ])
    ).toEqual([
      [null, "succeeded"],
      [null, "succeeded"],
      [paid.id, "succeeded"]
    ])

    expect((await app.request("DELETE", `${endpoints}/${paid.id}`, { key: secretKey })).status).toBe(204)
    const second = (await app.request("POST", "/api/v2/invoices", { key: secretKey, body: pixRequest() })).body
    const secondPaid = (
      await app.request("POST", "/api/v2/sandbox/invoices/pay", { key: secretKey, body: { id: second.secureId } })
    ).body
    await app.deliverPostbacksAt(dueAt(secondPaid.updatedAt))
    expect(types("/paid")).toEqual(["invoice.paid"])
    expect(types("/all")).toHaveLength(4)
    const secondDeliveries = (
      await app.request("GET", `/api/v2/webhooks/deliveries?invoice_id=${second.secureId}`, { key: secretKey })
    ).body.data
    expect(secondDeliveries.map((delivery: { endpoint_id: string }) => delivery.endpoint_id)).toEqual([all.id, all.id])
  })
})
