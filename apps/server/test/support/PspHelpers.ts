// What the suites of a server speaking to the local PSP (PixThroughPsp*.test.ts) do to it and to the server: the
// PSP's simulator switches and payments, and a merchant's pix invoices, searches, events and balance.
import { PixSettlements } from "@fatura/application"
import { Effect } from "effect"
import { expect } from "vitest"
import {
  type ApiPixContract,
  Exchanges,
  eventually,
  pixApi,
  settingsOf,
  startPsp,
  type TestPsp
} from "../../../../packages/pix-api/test/support/LocalPsp.js"
import { pixRequest, startApp, type TestApp } from "./TestApp.js"
import type { TestDatabase } from "./TestDatabases.js"

/**
 * The local PSP, and a server over `database` speaking to it with every exchange held to `contract`: a merchant whose
 * pix key the PSP takes, its test key, and the server's webhook registered at the PSP.
 */
export const startWithLocalPsp = async (database: TestDatabase, contract: ApiPixContract) => {
  const psp = await startPsp({ refundDelayMs: 150 })
  const exchanges = new Exchanges(contract)
  const app = await startApp(database, { pixProvider: pixApi(settingsOf(psp), exchanges) })
  const { company } = await app.registerCompany({ pixKey: "financeiro@padaria.example" })
  const key = (await app.createKey(company.id, "test")).secretKey
  await app.run(Effect.flatMap(PixSettlements, (pix) => pix.registerWebhook(`${app.baseUrl}/pix-api/webhook`)))
  return { psp, exchanges, app, key }
}

/** The simulator's switches as every test starts with them. */
export const switchesOff = {
  slowMs: 0,
  failing: false,
  dropNotifications: false,
  refuseRefunds: false,
  refuseRefundRequests: false
}

/** Over the PSP, the server and the merchant's key each suite starts in its `beforeAll`. */
export const pspHelpers = (psp: () => TestPsp, app: () => TestApp, key: () => string) => {
  const simulator = () => psp().anonymousClient()
  const switches = async (changes: Record<string, unknown>) => {
    const answer = await simulator().send("POST", "/simulator/switches", { json: changes, bearer: null })
    expect(answer.status).toBe(200)
  }
  /** A payer pays the charge at the PSP (another amount when given); the PSP's pix. */
  const payAtPsp = async (txid: string, valor?: string) => {
    const answer = await simulator().send("POST", "/simulator/pay", {
      json: { txid, ...(valor === undefined ? {} : { valor }) },
      bearer: null
    })
    expect(answer.status).toBe(201)
    return answer.json().pix as { endToEndId: string; valor: string }
  }
  const createPix = async (overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const created = await app().request("POST", "/api/v2/invoices", {
      key: key(),
      body: pixRequest(overrides),
      headers
    })
    expect(created.status).toBe(201)
    return created.body
  }
  const search = async (id: string) => (await app().request("GET", `/api/v2/invoices?id=${id}`, { key: key() })).body
  /** The invoice once `holds` is true of it: what the PSP's notifications make of it happens in the background. */
  const searchUntil = (id: string, holds: (invoice: any) => boolean) =>
    eventually(`invoice ${id} to settle`, async () => {
      const found = await search(id)
      return holds(found) ? found : undefined
    })
  const eventsOf = async (id: string) =>
    (await app().request("GET", `/api/v2/events?invoice_id=${id}&limit=100`, { key: key() })).body.data as Array<any>
  /** A notification as a PSP sends one; the PSP's callback is not part of the merchants' OpenAPI document. */
  const notify = (pix: ReadonlyArray<Record<string, unknown>>) =>
    fetch(`${app().baseUrl}/pix-api/webhook/pix`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pix })
    })
  const balancePix = async () =>
    (await app().request("GET", "/api/v2/company", { key: key() })).body.balance_pix as number
  return { simulator, switches, payAtPsp, createPix, search, searchUntil, eventsOf, notify, balancePix }
}
