// The postback sender against a real loopback receiver: headers, signature, status, pinned addresses.

import { createHmac } from "node:crypto"
import { createServer, type IncomingHttpHeaders } from "node:http"
import { PostbackSender } from "@fatura/application"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as HttpPostbackSender from "../src/HttpPostbackSender.js"

const received: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = []
let port = 0
const server = createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString()
  })
  request.on("end", () => {
    received.push({ url: request.url ?? "", headers: request.headers, body })
    response.writeHead(request.url === "/teapot" ? 418 : 204).end()
  })
})

beforeAll(
  () =>
    new Promise<void>((resolve) =>
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        port = typeof address === "object" && address !== null ? address.port : 0
        resolve()
      })
    )
)
afterAll(() => {
  server.closeAllConnections()
  return new Promise<void>((resolve) => server.close(() => resolve()))
})

const send = (url: string, addresses: ReadonlyArray<string> | null = null) =>
  Effect.gen(function* () {
    const sender = yield* PostbackSender
    return yield* sender.send({
      url,
      addresses,
      eventId: "evt_1",
      eventType: "invoice.paid",
      body: '{"id":"evt_1"}',
      secrets: ["whsec_new", "whsec_old"],
      timestamp: 1_700_000_000
    })
  }).pipe(Effect.provide(HttpPostbackSender.layer), Effect.result, Effect.runPromise)

describe("HttpPostbackSender", () => {
  it("posts the body with the headers of SPEC 8.2 and one signature per secret", async () => {
    const result = await send(`http://127.0.0.1:${port}/hook`)
    expect(result._tag).toBe("Success")
    const request = received.find((entry) => entry.url === "/hook")!
    expect(request.body).toBe('{"id":"evt_1"}')
    expect(request.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": HttpPostbackSender.userAgent,
      "x-fatura-event-id": "evt_1",
      "x-fatura-event-type": "invoice.paid"
    })
    const expected = ["whsec_new", "whsec_old"].map(
      (secret) => `v1=${createHmac("sha256", secret).update(`1700000000.{"id":"evt_1"}`).digest("hex")}`
    )
    expect(request.headers["x-fatura-signature"]).toBe(`t=1700000000,${expected.join(",")}`)
  })

  it("reports the status the receiver answered, success or not", async () => {
    const result = await send(`http://127.0.0.1:${port}/teapot`)
    expect(result).toMatchObject({ _tag: "Success", success: { statusCode: 418 } })
  })

  it("connects to the checked addresses, not to what the name resolves to now", async () => {
    const result = await send(`http://merchant.invalid:${port}/pinned`, ["127.0.0.1"])
    expect(result).toMatchObject({ _tag: "Success", success: { statusCode: 204 } })
    expect(received.some((entry) => entry.url === "/pinned")).toBe(true)
  })

  it("fails an attempt whose connection is refused", async () => {
    const result = await send("http://127.0.0.1:1/closed")
    expect(result._tag).toBe("Failure")
  })
})
