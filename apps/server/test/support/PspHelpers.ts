// The local PSP and a server speaking to it, as the suites of PixThroughPsp*.test.ts start and stop them, and what
// those suites do to both: the PSP's simulator switches and payments, and a merchant's pix invoices, searches, events
// and balance.
import { PixSettlements } from "@fatura/application"
import { Effect } from "effect"
import { afterAll, afterEach, beforeAll, expect } from "vitest"
import {
  type ApiPixContract,
  Exchanges,
  eventually,
  pixApi,
  settingsOf,
  startPsp
} from "../../../../packages/pix-api/test/support/LocalPsp.js"
import { pixRequest, startApp } from "./TestApp.js"
import type { TestDatabase } from "./TestDatabases.js"

/**
 * The local PSP, and a server over `database` speaking to it with every exchange held to `contract`: a merchant whose
 * pix key the PSP takes, its test key, and the server's webhook registered at the PSP.
 */
const startWithLocalPsp = async (database: TestDatabase, contract: ApiPixContract) => {
  const psp = await startPsp({ refundDelayMs: 150 })
  const exchanges = new Exchanges(contract)
  const app = await startApp(database, { pixProvider: pixApi(settingsOf(psp), exchanges) })
  const { company } = await app.registerCompany({ pixKey: "financeiro@padaria.example" })
  const key = (await app.createKey(company.id, "test")).secretKey
  await app.run(Effect.flatMap(PixSettlements, (pix) => pix.registerWebhook(`${app.baseUrl}/pix-api/webhook`)))
  return { psp, exchanges, app, key }
}

/** The simulator's switches as every test starts with them. */
const switchesOff = {
  slowMs: 0,
  failing: false,
  dropNotifications: false,
  refuseRefunds: false,
  refuseRefundRequests: false
}

type LocalPsp = Awaited<ReturnType<typeof startWithLocalPsp>>

/** Over the PSP, the server and the merchant's key a suite's `beforeAll` starts: for its tests to call. */
const pspHelpers = (suite: LocalPsp) => {
  const simulator = () => suite.psp.anonymousClient()
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
    const created = await suite.app.request("POST", "/api/v2/invoices", {
      key: suite.key,
      body: pixRequest(overrides),
      headers
    })
    expect(created.status).toBe(201)
    return created.body
  }
  const search = async (id: string) =>
    (await suite.app.request("GET", `/api/v2/invoices?id=${id}`, { key: suite.key })).body
  /** The invoice once `holds` is true of it: what the PSP's notifications make of it happens in the background. */
  const searchUntil = (id: string, holds: (invoice: any) => boolean) =>
    eventually(`invoice ${id} to settle`, async () => {
      const found = await search(id)
      return holds(found) ? found : undefined
    })
  const eventsOf = async (id: string) =>
    (await suite.app.request("GET", `/api/v2/events?invoice_id=${id}&limit=100`, { key: suite.key })).body
      .data as Array<any>
  /** A notification as a PSP sends one; the PSP's callback is not part of the merchants' OpenAPI document. */
  const notify = (pix: ReadonlyArray<Record<string, unknown>>) =>
    fetch(`${suite.app.baseUrl}/pix-api/webhook/pix`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pix })
    })
  const balancePix = async () =>
    (await suite.app.request("GET", "/api/v2/company", { key: suite.key })).body.balance_pix as number
  return { simulator, switches, payAtPsp, createPix, search, searchUntil, eventsOf, notify, balancePix }
}

/**
 * The local PSP and a server over `database` speaking to it (`startWithLocalPsp`), started before the suite's tests
 * and stopped after them, for the tests to read as `suite`, with `pspHelpers` over them. After each test, no exchange
 * broke `contract`, and the simulator's switches are off again.
 */
export const localPspSuite = (database: TestDatabase, contract: () => ApiPixContract) => {
  const suite = {} as LocalPsp
  beforeAll(async () => {
    Object.assign(suite, await startWithLocalPsp(database, contract()))
  })
  const helpers = pspHelpers(suite)
  afterEach(async () => {
    expect(contract().problems).toEqual([])
    await helpers.switches(switchesOff)
  })
  afterAll(async () => {
    await suite.app?.stop()
    await suite.psp?.stop()
  })
  return { suite, ...helpers }
}
