// The reference merchant next to a real server, as the README runs them: the invoice it creates is paid in the
// sandbox, and the postbacks it receives verify with the webhook secret the server printed.
import { type ChildProcess, spawn } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FaturaProcess, freePort, startFatura } from "./support/FaturaProcess.js"

const example = new URL("../dist/main.js", import.meta.url).pathname

const collect = (child: ChildProcess) => {
  const output = { text: "" }
  child.stdout?.on("data", (chunk: Buffer) => {
    output.text += chunk.toString()
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    output.text += chunk.toString()
  })
  return output
}

describe("the example merchant", () => {
  let fatura: FaturaProcess

  beforeAll(async () => {
    fatura = await startFatura()
  })

  afterAll(() => fatura?.stop())

  it("creates an invoice, has it paid, and verifies every postback", async () => {
    const key = /sk_test_[0-9A-Za-z]{32}/.exec(fatura.output())?.[0]
    const secret = /whsec_[0-9A-Za-z]{32}/.exec(fatura.output())?.[0]
    expect(key, fatura.output()).toBeDefined()
    expect(secret, fatura.output()).toBeDefined()
    const merchant = spawn(process.execPath, [example], {
      env: {
        ...process.env,
        FATURA_URL: `http://127.0.0.1:${fatura.port}`,
        FATURA_KEY: key,
        FATURA_WEBHOOK_SECRET: secret,
        EXAMPLE_PORT: String(await freePort())
      }
    })
    const said = collect(merchant)
    const exitCode = await new Promise<number | null>((resolve) => merchant.once("exit", resolve))
    expect(exitCode, said.text).toBe(0)
    expect(said.text).toMatch(/created invoice [0-9a-f-]{36} \(pending\)/)
    expect(said.text).toMatch(/verified invoice\.created evt_[0-9a-f-]{36} for invoice [0-9a-f-]{36}: pending/)
    expect(said.text).toMatch(/verified invoice\.paid evt_[0-9a-f-]{36} for invoice [0-9a-f-]{36}: paid/)
    expect(said.text).not.toMatch(/refused a postback/)
  }, 120_000)
})
