// The README's example against a real server: a pix invoice created, found and paid in the sandbox, its signed
// postback verified, and an unknown invoice answered with a typed NotFound; every answer it got is one the served
// OpenAPI document tells.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type FaturaServer, startFaturaServer } from "./support/FaturaServer.js"
import { expectMerchantSucceeded, runMerchant } from "./support/MerchantRun.js"

const example = new URL("../examples/Merchant.ts", import.meta.url).pathname

describe("the Merchant example", () => {
  let server: FaturaServer

  beforeAll(async () => {
    server = await startFaturaServer()
  })
  afterAll(() => server.stop())

  it("creates, finds and is told of the payment of a pix invoice, and handles an unknown one", async () => {
    expectMerchantSucceeded(await runMerchant(example, server))
    expect(server.contractProblems()).toEqual([])
  })
})
