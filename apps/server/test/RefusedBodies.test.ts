// A request the edge refuses on its headers costs no read of its body (issue 24, item 5): the credential and the rate
// limit are judged first, for every kind of access, and the answer comes while the body is still unsent — a client
// announcing 1 MiB and sending a sliver of it is answered, and its connection closed, without the server waiting for
// the rest. A refused body is never parsed (the access log says how many bytes were), a client that waits for
// `100 Continue` is never asked for it, and a refused body that does arrive is discarded without desynchronising the
// connection's next request.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { inMemory } from "./support/InMemoryServices.js"
import { connection, freshLoopback, type RawReply } from "./support/RawHttp.js"
import { cardRequest, pixRequest, startApp, type TestApp } from "./support/TestApp.js"

const mebibyte = 1024 * 1024

type Header = readonly [string, string]

const head = (method: string, target: string, headers: ReadonlyArray<Header>) =>
  `${[`${method} ${target} HTTP/1.1`, "host: 127.0.0.1", ...headers.map(([name, value]) => `${name}: ${value}`)].join("\r\n")}\r\n\r\n`

/** The start of a JSON array of 1 MiB: 4 KiB of it. */
const sliver = `[${"1,".repeat(2 * 1024)}`

/**
 * How long an answer may take on a machine busy with other work. A server that waited for the rest of the body would
 * answer 408 after its 30 s for a whole request, which no test here takes for an answer: the bound the tests hold is
 * that a refused request is answered while its body is unsent, not how fast.
 */
const answerWithinMs = 60_000

describe.each([inMemory])(
  "bodies refused before they are read on $name",
  { timeout: 4 * answerWithinMs },
  (database) => {
    let app: TestApp
    let port: number
    let secretKey: string
    let publicToken: string
    let pendingCard: { secureId: string; token: string }

    beforeAll(async () => {
      app = await startApp(database, { rateLimitPerKey: 5 })
      port = Number(new URL(app.baseUrl).port)
      secretKey = (await app.registerCompany()).secretKey
      publicToken = (await app.request("POST", "/api/v2/exchange-token", { key: secretKey })).body.public_token
      const invoice = (
        await app.request("POST", "/api/v2/invoices", { key: secretKey, body: { ...cardRequest(), card: undefined } })
      ).body
      pendingCard = { secureId: invoice.secureId, token: invoice.invoice.token_checkout }
    })
    afterAll(() => app.stop())

    const json: ReadonlyArray<Header> = [["content-type", "application/json"]]
    const bearer = (token: string): Header => ["authorization", `Bearer ${token}`]

    /**
     * Opens `count` connections from `localAddress`, each sending the head of a POST that announces 1 MiB and a sliver of
     * its body, never the rest; `count` replies that come while the bodies are unsent, or a failure when they do not.
     */
    const unsentBodies = async (
      target: string,
      headers: ReadonlyArray<Header>,
      options: { readonly count?: number; readonly outsideContract?: boolean } = {}
    ) => {
      const localAddress = freshLoopback()
      const connections = await Promise.all(
        Array.from({ length: options.count ?? 1 }, () => connection(port, localAddress))
      )
      for (const each of connections) {
        each.write(head("POST", target, [...json, ["content-length", String(mebibyte)], ...headers]))
        each.write(sliver)
      }
      return connections.map((each) => ({
        reply: each.next(
          { method: "POST", target },
          { timeoutMs: answerWithinMs, outsideContract: options.outsideContract ?? false }
        ),
        connection: each
      }))
    }

    /** The answer to one such request, which closes its connection: the rest of its body is not worth reading. */
    const answeredUnsent = async (target: string, headers: ReadonlyArray<Header>) => {
      const [sent] = await unsentBodies(target, headers)
      const reply = await sent!.reply
      expect(reply.headers.get("connection"), reply.text).toBe("close")
      await sent!.connection.closed
      return reply
    }

    /**
     * How many requests a burst from one address sends: the address's allowance is 60 at once and 10 a second more, so
     * this many outrun the refill even when the server admits only 15 a second.
     */
    const burst = 150

    /**
     * A burst of such requests from one address, all refused: every one answered while its body is unsent, with
     * `refusal` or, past the address's limit, 429 (at least once).
     */
    const allRefused = async (target: string, headers: ReadonlyArray<Header>, refusal: number) => {
      const sent = await unsentBodies(target, headers, { count: burst })
      const statuses = new Set((await Promise.all(sent.map(({ reply }) => reply))).map((reply) => reply.status))
      expect([...statuses].sort()).toEqual([refusal, 429])
    }

    /**
     * `count` such requests at once from one address, some let through (which then wait for their bodies, in vain) and
     * the rest refused with 429: the first 429, which must come while every body is unsent.
     */
    const firstLimited = async (
      target: string,
      headers: ReadonlyArray<Header>,
      options: { readonly count: number; readonly outsideContract?: boolean }
    ) => {
      const sent = await unsentBodies(target, headers, options)
      try {
        return await Promise.any(
          sent.map(({ reply }) =>
            reply.then((answer) => (answer.status === 429 ? answer : Promise.reject(new Error(`${answer.status}`))))
          )
        )
      } catch (error) {
        throw new Error(
          `no 429 while the bodies were unsent: ${String(error instanceof AggregateError ? error.errors : error)}`
        )
      } finally {
        for (const { connection: each } of sent) each.destroy()
      }
    }

    const expectCode = (reply: RawReply, status: number, code: string) => {
      expect(reply.status, reply.text).toBe(status)
      expect(reply.body.code).toBe(code)
    }

    describe("a secret key's route", () => {
      it("answers a wrong or missing key 401 before the body is sent", async () => {
        expectCode(
          await answeredUnsent("/api/v2/invoices", [bearer("sk_test_00000000000000000000000000000000")]),
          401,
          "unauthorized"
        )
        expectCode(await answeredUnsent("/api/v2/invoices", []), 401, "unauthorized")
      })

      it("answers 429 to refused keys past their address's limit before their bodies are sent", async () => {
        await allRefused("/api/v2/invoices", [bearer("sk_test_00000000000000000000000000000000")], 401)
      })

      it("answers 429 to a key past its own rate limit before the body is sent", async () => {
        // The key's allowance is 10 at once and 5 a second more: 60 outrun the refill at 12 admitted a second.
        expectCode(await firstLimited("/api/v2/invoices", [bearer(secretKey)], { count: 60 }), 429, "rate_limited")
      })
    })

    describe("the payer's side", () => {
      it("answers a wrong public token 401, and an address past its limit 429, before the body is sent", async () => {
        expectCode(await answeredUnsent("/api/v2/public/cards", [bearer("pk_test_nothing")]), 401, "unauthorized")
        await allRefused("/api/v2/public/cards", [bearer("pk_test_nothing")], 401)
        expectCode(
          await firstLimited("/api/v2/public/cards", [bearer(publicToken)], { count: burst }),
          429,
          "rate_limited"
        )
      })

      it("answers a wrong or missing checkout token 404, and an address past its limit 429, before the body is sent", async () => {
        const pay = `/api/v2/public/invoices/${pendingCard.secureId}/pay`
        expectCode(await answeredUnsent(`${pay}?token=not-the-token`, []), 404, "not_found")
        expectCode(await answeredUnsent(pay, []), 404, "not_found")
        await allRefused(pay, [], 404)
        expectCode(await firstLimited(`${pay}?token=${pendingCard.token}`, [], { count: burst }), 429, "rate_limited")
      })
    })

    it("answers a PSP's notifications from an address past its limit 429 before their bodies are sent", async () => {
      // Not held to the contract: a PSP's callback is no operation of the merchants' OpenAPI document.
      const limited = await firstLimited("/pix-api/webhook/pix", [], { count: burst, outsideContract: true })
      expectCode(limited, 429, "rate_limited")
    })

    it("answers a route that takes no body, or a method no route has, without waiting for a body", async () => {
      const client = await connection(port, freshLoopback())
      client.write(head("GET", "/health", [["content-length", String(mebibyte)]]) + sliver)
      expect((await client.next({ method: "GET", target: "/health" }, { timeoutMs: answerWithinMs })).body).toEqual({
        status: "ok"
      })
      client.destroy()
      expectCode(await answeredUnsent("/health", []), 405, "method_not_allowed")
      const reply = await answeredUnsent("/api/v2/exchange-token", [bearer(secretKey)])
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.public_token).toBe(publicToken)
    })

    it("never parses a refused body: the access log says it read none of it", async () => {
      const body = JSON.stringify(pixRequest())
      const logged = async (requestId: string) => {
        const line = app.logs.find((text) => text.includes(requestId) && text.includes("parsedBodyBytes"))
        return Number(/"parsedBodyBytes":(\d+)/.exec(line ?? "")?.[1])
      }
      const refused = await app.request("POST", "/api/v2/invoices", {
        key: "sk_test_00000000000000000000000000000000",
        rawBody: body,
        headers: { "x-request-id": "refused-body-never-parsed" }
      })
      expect(refused.status).toBe(401)
      expect(await logged("refused-body-never-parsed")).toBe(0)
      const admitted = await app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        rawBody: body,
        headers: { "x-request-id": "admitted-body-parsed" }
      })
      expect(admitted.status).toBe(201)
      expect(await logged("admitted-body-parsed")).toBe(Buffer.byteLength(body))
    })

    it("never asks a client that waits for 100 Continue for a body it refuses", async () => {
      const client = await connection(port, freshLoopback())
      client.write(
        head("POST", "/api/v2/invoices", [
          ...json,
          ["content-length", "2000"],
          ["expect", "100-continue"],
          bearer("sk_test_00000000000000000000000000000000")
        ])
      )
      const reply = await client.next({ method: "POST", target: "/api/v2/invoices" }, { timeoutMs: answerWithinMs })
      expectCode(reply, 401, "unauthorized")
      expect(client.interim).toEqual([])
      expect(reply.headers.get("connection")).toBe("close")
      await client.closed
    })

    it("discards what arrives of a refused body, and answers the connection's next request", async () => {
      const client = await connection(port, freshLoopback())
      const wrongKey = bearer("sk_test_00000000000000000000000000000000")
      const body = JSON.stringify(pixRequest())
      // Half the body before the answer, the other half after it, then another request on the same connection.
      client.write(head("POST", "/api/v2/invoices", [...json, ["content-length", String(body.length)], wrongKey]))
      client.write(body.slice(0, 100))
      expectCode(
        await client.next({ method: "POST", target: "/api/v2/invoices" }, { timeoutMs: answerWithinMs }),
        401,
        "unauthorized"
      )
      client.write(body.slice(100))
      client.write(head("GET", "/health", []))
      expect((await client.next({ method: "GET", target: "/health" }, { timeoutMs: answerWithinMs })).body).toEqual({
        status: "ok"
      })
      // A whole refused body sent at once, then the next request.
      client.write(
        head("POST", "/api/v2/invoices", [...json, ["content-length", String(body.length)], wrongKey]) + body
      )
      client.write(head("GET", "/health", []))
      expectCode(
        await client.next({ method: "POST", target: "/api/v2/invoices" }, { timeoutMs: answerWithinMs }),
        401,
        "unauthorized"
      )
      expect((await client.next({ method: "GET", target: "/health" }, { timeoutMs: answerWithinMs })).body).toEqual({
        status: "ok"
      })
      client.destroy()
    })
  }
)
