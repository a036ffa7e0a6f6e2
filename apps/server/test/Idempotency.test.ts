// SPEC 9: idempotent POSTs, also under concurrency; a repeat carrying card data is told apart from another card's.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { appWithCompany } from "./support/SuiteServers.js"
import { cardRequest, pixRequest, type Reply, startApp, type TestApp, testCard } from "./support/TestApp.js"
import { type TestDatabase, testDatabases } from "./support/TestDatabases.js"

/** A Luhn-valid card number with the first six and last four digits of `testCard`'s, which the sandbox approves. */
const lookalike = "4111 1100 0009 1111"

/** 3-D Secure data, which a payment on the payer's side carries. */
const threeDs = { eci: "05", cavv: "AAABBJg0VhI0VniQEjRWAAAAAAA=" }

const expectConflict = (reply: Reply, what: string) => {
  expect(reply.status, what).toBe(409)
  expect(reply.body.code, what).toBe("idempotency_conflict")
}

const expectReplayOf = (reply: Reply, first: Reply) => {
  expect(reply.status).toBe(first.status)
  expect(reply.headers.get("idempotent-replayed")).toBe("true")
  expect(reply.body).toEqual(first.body)
}

describe.each(testDatabases)("idempotency on $name", (database) => {
  const suite = appWithCompany(database)

  const post = (idempotencyKey: string, body: unknown, withKey = suite.key, path = "/api/v2/invoices") =>
    suite.app.request("POST", path, { key: withKey, body, headers: { "idempotency-key": idempotencyKey } })

  const invoicesWithRef = async (externalRef: string) =>
    Number(
      (await suite.app.query(`SELECT count(*)::int AS n FROM invoices WHERE external_ref = '${externalRef}'`))[0]!.n
    )

  it("makes exactly one invoice out of 50 parallel creates with one key", async () => {
    const body = pixRequest({ external_ref: "parallel-1" })
    const replies = await Promise.all(Array.from({ length: 50 }, () => post("parallel-key-1", body)))
    expect(await invoicesWithRef("parallel-1")).toBe(1)
    const created = replies.filter((reply) => reply.status === 201)
    const waiting = replies.filter((reply) => reply.status === 409)
    expect(created.length + waiting.length).toBe(50)
    expect(created.filter((reply) => reply.headers.get("idempotent-replayed") === null)).toHaveLength(1)
    expect(new Set(created.map((reply) => reply.body.id)).size).toBe(1)
    for (const reply of waiting) expect(reply.body.code).toBe("idempotency_in_progress")

    const after = await post("parallel-key-1", body)
    expect(after.status).toBe(201)
    expect(after.headers.get("idempotent-replayed")).toBe("true")
    expect(after.body).toEqual(created[0]!.body)
  })

  it("replays the stored response to a repeat with the same body, even with its keys reordered", async () => {
    const body = pixRequest({ external_ref: "replay-1", metadata: { a: "1", b: "2" } })
    const first = await post("replay-key", body)
    expect(first.status).toBe(201)
    expect(first.headers.get("idempotent-replayed")).toBeNull()
    const reordered = JSON.parse(JSON.stringify({ ...body, metadata: { b: "2", a: "1" } }))
    const second = await post("replay-key", Object.fromEntries(Object.entries(reordered).reverse()))
    expect(second.status).toBe(201)
    expect(second.headers.get("idempotent-replayed")).toBe("true")
    expect(second.body).toEqual(first.body)
    expect(await invoicesWithRef("replay-1")).toBe(1)
  })

  it("answers 409 idempotency_conflict to the same key with another body", async () => {
    await post("conflict-key", pixRequest({ external_ref: "conflict-1" }))
    const other = await post("conflict-key", pixRequest({ external_ref: "conflict-1", total_price_cents: 999 }))
    expect(other.status).toBe(409)
    expect(other.body.code).toBe("idempotency_conflict")
    expect(await invoicesWithRef("conflict-1")).toBe(1)
  })

  it("replays a 422 too, but lets a 400 be retried with a fixed body", async () => {
    const refused = await post("refused-key", pixRequest({ total_price_cents: 50 }))
    expect(refused.status).toBe(422)
    const again = await post("refused-key", pixRequest({ total_price_cents: 50 }))
    expect(again.status).toBe(422)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toEqual(refused.body)

    const invalid = await post("invalid-key", pixRequest({ method: "cash", external_ref: "fixed-1" }))
    expect(invalid.status).toBe(400)
    const fixed = await post("invalid-key", pixRequest({ external_ref: "fixed-1" }))
    expect(fixed.status).toBe(201)
    expect(fixed.headers.get("idempotent-replayed")).toBeNull()
  })

  it("replays a card payment instead of charging the card again", async () => {
    const body = cardRequest({}, { external_ref: "card-once" })
    const first = await post("card-key", body)
    const second = await post("card-key", body)
    expect(first.body.status).toBe("paid")
    expect(second.headers.get("idempotent-replayed")).toBe("true")
    expect(second.body).toEqual(first.body)
    expect(await invoicesWithRef("card-once")).toBe(1)
  })

  it("tells apart two cards that show the same first six and last four digits", async () => {
    // Another payer's card must never get the first payer's token, charge or payment. Nothing of a security code is
    // kept, not even hashed: a repeat that differs from the first only in it is the same request, and is replayed.
    const others = [{ number: lookalike, security_code: "987" }, { number: lookalike }]

    const merchantKey = (await suite.app.registerCompany()).secretKey
    const invoice = await post("card-apart", cardRequest({}, { external_ref: "card-apart" }), merchantKey)
    expect(invoice.body.status).toBe("paid")
    for (const other of others) {
      expectConflict(
        await post("card-apart", cardRequest(other, { external_ref: "card-apart" }), merchantKey),
        "invoice"
      )
    }
    expectReplayOf(await post("card-apart", cardRequest({}, { external_ref: "card-apart" }), merchantKey), invoice)
    expectReplayOf(
      await post("card-apart", cardRequest({ security_code: "987" }, { external_ref: "card-apart" }), merchantKey),
      invoice
    )
    expect(await invoicesWithRef("card-apart")).toBe(1)

    // Which turns 3-D Secure on for the company's cards: the payer's side comes after the invoice.
    const publicToken = (await post("exchange-for-cards", undefined, merchantKey, "/api/v2/exchange-token")).body
      .public_token
    const tokenize = (card: Record<string, unknown>) =>
      suite.app.request("POST", "/api/v2/public/cards", {
        key: publicToken,
        body: card,
        headers: { "idempotency-key": "tokenize-apart" }
      })
    const token = await tokenize(testCard)
    expect(token.status).toBe(201)
    for (const other of others) {
      const reply = await tokenize({ ...testCard, ...other })
      expectConflict(reply, `tokenization with ${JSON.stringify(other)}`)
      expect(JSON.stringify(reply.body)).not.toContain(token.body.token)
    }
    expectReplayOf(await tokenize({ ...testCard, number: "4111111111111111" }), token)
    expectReplayOf(await tokenize({ ...testCard, security_code: "987" }), token)

    const pending = (await post("pending-apart", cardRequest({}, { card: undefined }), merchantKey)).body
    const pay = (card: Record<string, unknown>) =>
      suite.app.request(
        "POST",
        `/api/v2/public/invoices/${pending.secureId}/pay?token=${pending.invoice.token_checkout}`,
        {
          body: { card: { ...testCard, ...threeDs, ...card } },
          headers: { "idempotency-key": "pay-apart" }
        }
      )
    const paid = await pay({})
    expect(paid.status).toBe(200)
    expect(paid.body.status).toBe("paid")
    for (const other of others) expectConflict(await pay(other), `payment with ${JSON.stringify(other)}`)
    expectReplayOf(await pay({}), paid)
  })

  it("scopes keys by company and by endpoint", async () => {
    const other = await suite.app.registerCompany()
    const mine = await post("shared-key", pixRequest({ external_ref: "scope-1" }))
    const theirs = await post("shared-key", pixRequest({ external_ref: "scope-1" }), other.secretKey)
    expect(theirs.headers.get("idempotent-replayed")).toBeNull()
    expect(theirs.body.companyId).toBe(other.company.id)
    expect(mine.body.companyId).toBe(suite.companyId)
    const exchange = await post("shared-key", undefined, suite.key, "/api/v2/exchange-token")
    expect(exchange.status).toBe(200)
    expect(exchange.body.public_token).toMatch(/^pk_test_/)
    const exchangeAgain = await post("shared-key", undefined, suite.key, "/api/v2/exchange-token")
    expect(exchangeAgain.headers.get("idempotent-replayed")).toBe("true")
    expect(exchangeAgain.body).toEqual(exchange.body)
  })

  it("creates a new invoice for every POST without a key", async () => {
    const body = pixRequest({ external_ref: "no-key" })
    await suite.app.request("POST", "/api/v2/invoices", { key: suite.key, body })
    await suite.app.request("POST", "/api/v2/invoices", { key: suite.key, body })
    expect(await invoicesWithRef("no-key")).toBe(2)
  })

  it("answers 400 to a key that is empty, too long or not printable ASCII", async () => {
    for (const bad of ["x".repeat(256), "tab\there", "ação"]) {
      const reply = await post(bad, pixRequest())
      expect(reply.status, bad).toBe(400)
      expect(reply.body.code).toBe("invalid_request")
    }
    const longest = await post("k".repeat(255), pixRequest())
    expect(longest.status).toBe(201)
  })

  it("answers an unknown route or a body that is not JSON as it would without a key", async () => {
    for (const [path, expected] of [
      ["/api/v2/no-such-route", 404],
      ["/api/v2/invoices", 400]
    ] as const) {
      const reply = await suite.app.request("POST", path, {
        key: suite.key,
        rawBody: "not json",
        headers: { "idempotency-key": `raw-${path}`, "content-type": "application/json" }
      })
      expect(reply.status, path).toBe(expected)
    }
  })
})

describe.each(testDatabases)("idempotency of card data across restarts on $name", (database) => {
  // The database outlives the first server, as it does a restart or a deploy: the embedded one gets a directory.
  let dataDir: string | undefined
  let shared: TestDatabase
  let releaseShared: () => Promise<void>

  beforeAll(async () => {
    const acquired = await database.acquire()
    dataDir = acquired.config._tag === "Embedded" ? mkdtempSync(join(tmpdir(), "fatura-fingerprint-")) : undefined
    const config = dataDir === undefined ? acquired.config : { _tag: "Embedded" as const, dataDir }
    releaseShared = acquired.release
    shared = { name: database.name, acquire: async () => ({ config, release: async () => {} }) }
  })
  afterAll(async () => {
    await releaseShared?.()
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
  })

  it("replays a card request to its repeat after the server restarted, and still tells another card apart", async () => {
    const before = await startApp(shared)
    const { secretKey } = await before.registerCompany()
    const send = (app: TestApp, card: Record<string, unknown> = {}) =>
      app.request("POST", "/api/v2/invoices", {
        key: secretKey,
        body: cardRequest(card, { external_ref: "across-restart" }),
        headers: { "idempotency-key": "across-restart" }
      })
    const first = await send(before)
    expect(first.body.status).toBe("paid")
    await before.stop()

    const after = await startApp(shared)
    try {
      expectReplayOf(await send(after), first)
      expectConflict(await send(after, { number: lookalike }), "another card after the restart")
    } finally {
      await after.stop()
    }
    // Two starts of the embedded database on a loaded machine: room, not a race.
  }, 180_000)
})
