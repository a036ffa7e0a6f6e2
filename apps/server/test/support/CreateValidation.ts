// The requests and checks of the Create Invoices validation suites (CreateInvoiceValidation*.test.ts): a valid pix
// request to change one field of, and what a refused request must answer and leave behind (nothing), or an accepted
// one must store.
import { expect } from "vitest"
import type { AppWithCompany } from "./SuiteServers.js"
import { pixRequest, type Reply } from "./TestApp.js"

export type Body = Record<string, unknown>

export const basePayer = (): Body => ({ ...(pixRequest().payer as Body) })

/** A valid pix request whose payer has `changes` applied (`undefined` removes the field). */
export const withPayer = (changes: Body): Body => {
  const payer = basePayer()
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) delete payer[field]
    else payer[field] = value
  }
  return pixRequest({ payer })
}

/** A valid pix request without `field`. */
export const without = (field: string): Body => {
  const body: Body = pixRequest()
  delete body[field]
  return body
}

export const item = (name: string, quantity: number, unit_price: number) => ({ name, quantity, unit_price })

export const bankSlipAddress = {
  address_zip: "01310-100",
  address_line: "Avenida Paulista",
  address_number: "1000",
  address_city: "São Paulo",
  address_state: "SP"
}

export const manyKeys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`key${i}`, "v"]))

/** Over the server and the company each suite starts in its `beforeAll`. */
export const createValidation = (suite: AppWithCompany) => {
  const create = (body: unknown) => suite.app.request("POST", "/api/v2/invoices", { key: suite.key, body })

  /** What a request may leave behind: invoices, their events and timeline, payers' client records. */
  const stored = async () => {
    const [invoices] = await suite.app.query("SELECT count(*)::int AS n FROM invoices")
    const [events] = await suite.app.query("SELECT count(*)::int AS n FROM events")
    const [clients] = await suite.app.query("SELECT count(*)::int AS n FROM clients")
    return { invoices: invoices?.n, events: events?.n, clients: clients?.n }
  }

  const expectInvalidBody = (reply: Reply, path?: string) => {
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe("invalid_request")
    expect(typeof reply.body.message).toBe("string")
    expect(reply.body.message.length).toBeGreaterThan(0)
    expect(Array.isArray(reply.body.issues)).toBe(true)
    for (const issue of reply.body.issues) {
      expect(typeof issue.path).toBe("string")
      expect(typeof issue.message).toBe("string")
    }
    if (path !== undefined) expect(reply.body.issues.map((issue: { path: string }) => issue.path)).toContain(path)
  }

  /** Sends `body`, expects a 400 with an issue at `path`, and checks that nothing was stored. */
  const expectInvalid = async (body: unknown, path: string) => {
    const before = await stored()
    const reply = await create(body)
    expectInvalidBody(reply, path)
    expect(await stored()).toEqual(before)
    return reply
  }

  const expectUnprocessable = async (body: unknown, code: string) => {
    const before = await stored()
    const reply = await create(body)
    expect(reply.status).toBe(422)
    expect(reply.body.code).toBe(code)
    expect(typeof reply.body.message).toBe("string")
    expect(await stored()).toEqual(before)
    return reply
  }

  const expectCreated = async (body: unknown) => {
    const before = await stored()
    const reply = await create(body)
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body.status).toBe("pending")
    expect(reply.body.companyId).toBe(suite.companyId)
    const after = await stored()
    expect(after.invoices).toBe((before.invoices as number) + 1)
    return reply
  }
  return { create, stored, expectInvalidBody, expectInvalid, expectUnprocessable, expectCreated }
}
