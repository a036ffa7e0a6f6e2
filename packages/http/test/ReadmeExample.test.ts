// The README's example, run as its reader would run it: a server of its own, built from the packages by name, and
// called over HTTP with the key it printed.
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const example = new URL("../examples/Serve.ts", import.meta.url).pathname

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

describe("the README's example", () => {
  let server: ChildProcess
  let output = ""
  let base = ""

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    server = spawn(process.execPath, [example], { env: { ...process.env, PORT: String(port) } })
    server.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    server.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    // Node, effect and PGlite on a busy machine; shorter than the hook's timeout, so that a slow start says what
    // the example printed.
    const deadline = Date.now() + 90_000
    while (!/Listening on/.test(output)) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the example did not start:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }, 120_000)

  afterAll(async () => {
    if (server.exitCode !== null) return
    const exited = new Promise((resolve) => server.once("exit", resolve))
    server.kill("SIGTERM")
    await exited
  })

  it("serves the API to the company it registered", async () => {
    const key = /company 1, test key (sk_test_[0-9A-Za-z]{32})/.exec(output)?.[1]
    expect(key, output).toBeDefined()
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" }

    const company = await fetch(`${base}/api/v2/company`, { headers })
    expect(company.status).toBe(200)
    expect(await company.json()).toMatchObject({ id: 1, fantasy_name: "Padaria São João", balance_pix: 0 })

    const created = await fetch(`${base}/api/v2/invoices`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        method: "pix",
        total_price_cents: 12_345,
        payer: { name: "Maria Souza", cpf_cnpj: "529.982.247-25", email: "maria@example.com" }
      })
    })
    expect(created.status).toBe(201)
    expect(await created.json()).toMatchObject({ status: "pending", amount: 12_345, fee: { estimatedFee: 246 } })

    const refused = await fetch(`${base}/api/v2/company`)
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ code: "unauthorized" })
  })
})
