// The simulator's switches that make the PSP misbehave on purpose, and what the PSP answers to the API Pix
// products it does not offer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { ApiPixClient } from "./support/ApiPixClient.js"
import { ApiPixContract } from "./support/ApiPixContract.js"
import { chargeRequest, newTxid } from "./support/Charges.js"
import { startPsp, type TestPsp } from "./support/TestPsp.js"

describe("the simulator's switches", () => {
  let contract: ApiPixContract
  let psp: TestPsp
  let client: ApiPixClient

  beforeAll(async () => {
    contract = await ApiPixContract.load()
    psp = await startPsp()
    client = await psp.authenticatedClient(contract)
  })
  afterEach(async () => {
    await psp.switches.change({ failing: false, slowMs: 0 })
    expect(contract.problems).toEqual([])
  })
  afterAll(async () => {
    client?.close()
    await psp?.stop()
  })

  it("shows the switches, all off at start, and refuses what is not one", async () => {
    const shown = await client.get("/simulator/switches")
    expect(shown.json()).toEqual({
      slowMs: 0,
      failing: false,
      dropNotifications: false,
      refuseRefunds: false,
      refuseRefundRequests: false
    })
    expect((await client.post("/simulator/switches", { slowMs: -1 })).status).toBe(400)
    expect((await client.post("/simulator/switches", { failing: "yes" })).status).toBe(400)
  })

  it("answers 503 ServicoIndisponivel to every API Pix call while failing is on", async () => {
    const txid = newTxid()
    expect((await client.post("/simulator/switches", { failing: true })).json().failing).toBe(true)
    for (const answer of [
      await client.put(`/cob/${txid}`, chargeRequest(psp.state.credentials.pixKey)),
      await client.get(`/cob/${txid}`),
      await client.get("/pix/E99999999202001011200abcdefghijk")
    ]) {
      expect(answer.status).toBe(503)
      expect(answer.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel" })
    }
    // The token endpoint is not an API Pix call: a client can still authenticate, then meets the 503.
    expect((await client.authenticate(psp.state.credentials.clientId, psp.state.credentials.clientSecret)).status).toBe(
      200
    )
    await client.post("/simulator/switches", { failing: false })
    expect((await client.put(`/cob/${txid}`, chargeRequest(psp.state.credentials.pixKey))).status).toBe(201)
  })

  it("makes every API Pix answer wait slowMs", async () => {
    await client.post("/simulator/switches", { slowMs: 300 })
    const started = performance.now()
    expect((await client.get(`/cob/${newTxid()}`)).status).toBe(404)
    expect(performance.now() - started).toBeGreaterThanOrEqual(300)
  })

  it("answers 403 AcessoNegado to an API Pix product it does not offer", async () => {
    const answer = await client.get("/lotecobv/1")
    expect(answer.status).toBe(403)
    expect(answer.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/AcessoNegado" })
  })
})
