// SPEC 12.2 with `fatura serve` running on a fresh embedded database, as a newcomer runs it: its first start prints a
// working demo key; the administrative commands, which cannot open a database the server holds, reach it through the
// server's admin socket — which only the server's user may open — and print and exit as they do without a server (a
// refusal too: the use case's error crosses the socket); a second server is refused; stopping the server removes its
// socket.
import type { ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkedFetch } from "./support/Contract.js"
import { administer, adminSocketOf, embeddedIn, failedWith, fatura } from "./support/FaturaCommands.js"
import { freePort, startServer } from "./support/ServerProcess.js"

// Every command is a process of its own, slow to start on a busy machine: the run of all of them has room.
describe("fatura serve on a fresh embedded database", { timeout: 600_000 }, () => {
  let dataDir: string
  let server: ChildProcess
  let output: () => string
  let baseUrl: string
  let createdKeys: Array<string> = []

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "fatura-serve-"))
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    const started = await startServer({
      ...process.env,
      ...embeddedIn(dataDir),
      PORT: String(port),
      HOST: "127.0.0.1"
    })
    server = started.child
    output = started.output
    // Longer than `startServer` waits, so that a server that does not start says what it printed.
  }, 120_000)

  afterAll(async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve))
      server.kill("SIGTERM")
      await exited
    }
    rmSync(dataDir, { recursive: true, force: true })
  })

  const companyWith = (key: string) =>
    checkedFetch(`${baseUrl}/api/v2/company`, { headers: { authorization: `Bearer ${key}` } })

  it("prints the demo company's test key, and the key works", async () => {
    const key = /sk_test_[0-9A-Za-z]{32}/.exec(output())?.[0]
    expect(key, output()).toBeDefined()
    expect(output()).toMatch(/test webhook secret {2}whsec_[0-9A-Za-z]{32}\n/)
    const company = await companyWith(key!)
    expect(company.status).toBe(200)
    // It comes with a test bank account, for withdrawals in the sandbox.
    expect(await company.json()).toMatchObject({
      bank_code: "001",
      bank_name: "Banco do Brasil S.A.",
      bank_agency: "0001",
      bank_account: "12345678",
      bank_digit: "9",
      bank_type: "corrente"
    })
    const created = await checkedFetch(`${baseUrl}/api/v2/invoices`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        method: "pix",
        total_price_cents: 1_990,
        payer: { name: "Ana", cpf_cnpj: "529.982.247-25", email: "ana@example.com" }
      })
    })
    expect(created.status).toBe(201)
    const invoice = (await created.json()) as { secureId: string }
    const found = await checkedFetch(`${baseUrl}/api/v2/invoices?id=${invoice.secureId}`, {
      headers: { authorization: `Bearer ${key}` }
    })
    expect(found.status).toBe(200)
  })

  it("serves its admin socket to its own user alone", () => {
    const directory = statSync(join(dataDir, "admin"))
    const socket = statSync(adminSocketOf(dataDir))
    expect(directory.isDirectory()).toBe(true)
    expect((directory.mode & 0o777).toString(8)).toBe("700")
    expect(socket.isSocket()).toBe(true)
    expect((socket.mode & 0o777).toString(8)).toBe("600")
    expect([directory.uid, socket.uid]).toEqual([process.getuid?.(), process.getuid?.()])
  })

  it("runs every administrative command in the running server, printing and exiting as without it", async () => {
    const { companyId, revokedKey, liveKey } = await administer(embeddedIn(dataDir))
    createdKeys = [revokedKey, liveKey]
    // What the commands did is the running server's: the key they made works, the key they revoked does not.
    const company = await companyWith(liveKey)
    expect(company.status).toBe(200)
    expect(((await company.json()) as { id: number }).id).toBe(companyId)
    expect((await companyWith(revokedKey)).status).toBe(401)
  })

  it("asks through it for --pix-key when the email cannot be the key, and takes the company with one", async () => {
    const email = `${"a".repeat(65)}@loja.exam.br`
    const args = ["company", "create", "--name", "Loja", "--cnpj", "11.222.333/0001-81", "--email", email]
    failedWith(
      await fatura(embeddedIn(dataDir), ...args),
      `the email ${email} cannot be the company's pix key (an email pix key has at most 77 characters, this one ` +
        "has 78): a pix key must be given with --pix-key"
    )
    const created = await fatura(embeddedIn(dataDir), ...args, "--pix-key", "11.222.333/0001-81", "--json")
    expect(JSON.parse(created.stdout).company_id).toBeGreaterThan(0)
  })

  it("refuses a second server on its database, in one line", async () => {
    const port = String(await freePort())
    const second = await fatura({ ...embeddedIn(dataDir), PORT: port, HOST: "127.0.0.1" }, "serve")
    expect(second.code).toBe(1)
    expect(second.stderr).toBe(
      `fatura: the embedded database in ${dataDir} is in use by process ${server.pid}: stop it first, or use DATABASE_URL\n`
    )
  })

  it("logs as JSON lines and never logs a key", () => {
    const logLines = output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
    expect(logLines.length).toBeGreaterThan(0)
    for (const line of logLines) {
      expect(() => JSON.parse(line)).not.toThrow()
      expect(line).not.toMatch(/sk_test_/)
    }
    expect(createdKeys).toHaveLength(2)
    for (const key of createdKeys) expect(output()).not.toContain(key)
  })

  it("removes its socket when it stops", async () => {
    const exited = new Promise<number | null>((resolve) => server.once("exit", resolve))
    server.kill("SIGTERM")
    expect(await exited).toBe(0)
    expect(existsSync(adminSocketOf(dataDir))).toBe(false)
  })
})
