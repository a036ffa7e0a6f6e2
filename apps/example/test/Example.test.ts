// The reference merchant next to a real server, as the README runs them: the invoice it creates is paid in the
// sandbox, and the postbacks it receives verify with the webhook secret the server printed.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const server = new URL("../../server/dist/main.js", import.meta.url).pathname
const example = new URL("../dist/main.js", import.meta.url).pathname

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

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

const waitFor = async (output: { text: string }, pattern: RegExp, what: string) => {
  const deadline = Date.now() + 45_000
  while (!pattern.test(output.text)) {
    if (Date.now() > deadline) throw new Error(`no ${what}:\n${output.text}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe("the example merchant", () => {
  let dataDir: string
  let fatura: ChildProcess
  let output: { text: string }
  let port: number

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "fatura-example-"))
    port = await freePort()
    fatura = spawn(process.execPath, [server, "serve"], {
      env: { ...process.env, DATABASE_URL: "", FATURA_DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" }
    })
    output = collect(fatura)
    await waitFor(output, /Listening on/, "server start")
  })

  afterAll(async () => {
    if (fatura.exitCode === null) {
      const exited = new Promise((resolve) => fatura.once("exit", resolve))
      fatura.kill("SIGTERM")
      await exited
    }
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("creates an invoice, has it paid, and verifies every postback", async () => {
    const key = /sk_test_[0-9A-Za-z]{32}/.exec(output.text)?.[0]
    const secret = /whsec_[0-9A-Za-z]{32}/.exec(output.text)?.[0]
    expect(key, output.text).toBeDefined()
    expect(secret, output.text).toBeDefined()
    const merchant = spawn(process.execPath, [example], {
      env: {
        ...process.env,
        FATURA_URL: `http://127.0.0.1:${port}`,
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
  })
})
