// SPEC 12.2: the built `fatura` program as a newcomer runs it — first start on an empty embedded database
// prints a working demo key — and the company and key commands on a database of their own.
import { type ChildProcess, execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkedFetch } from "./support/Contract.js"
import { freePort, main, startServer } from "./support/ServerProcess.js"

const run = promisify(execFile)

const fatura = (dataDir: string, ...args: Array<string>) =>
  run(process.execPath, [main, ...args], { env: { ...process.env, DATABASE_URL: "", FATURA_DATA_DIR: dataDir } })

describe("fatura serve on a fresh embedded database", () => {
  let dataDir: string
  let server: ChildProcess
  let output: () => string
  let baseUrl: string

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "fatura-serve-"))
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    const started = await startServer({
      ...process.env,
      DATABASE_URL: "",
      FATURA_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1"
    })
    server = started.child
    output = started.output
  })

  afterAll(async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve))
      server.kill("SIGTERM")
      await exited
    }
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("prints the demo company's test key, and the key works", async () => {
    const key = /sk_test_[0-9A-Za-z]{32}/.exec(output())?.[0]
    expect(key, output()).toBeDefined()
    expect(output()).toMatch(/test webhook secret {2}whsec_[0-9A-Za-z]{32}\n/)
    const company = await checkedFetch(`${baseUrl}/api/v2/company`, { headers: { authorization: `Bearer ${key}` } })
    expect(company.status).toBe(200)
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

  it("refuses to open its embedded database from a second process", async () => {
    const failure = await fatura(dataDir, "keys", "list", "1").then(
      () => undefined,
      (error: { stdout: string; stderr: string; code: number }) => error
    )
    expect(failure?.code).not.toBe(0)
    expect(`${failure?.stdout}${failure?.stderr}`).toMatch(/in use by process \d+/)
  })

  it("logs as JSON lines and never logs the key", () => {
    const logLines = output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
    expect(logLines.length).toBeGreaterThan(0)
    for (const line of logLines) {
      expect(() => JSON.parse(line)).not.toThrow()
      expect(line).not.toMatch(/sk_test_/)
    }
  })
})

// Each command is a process of its own that opens the embedded database: a test of six commands takes as long as
// six starts, more when the suite runs files side by side.
describe("fatura company and keys commands", { timeout: 120_000 }, () => {
  let dataDir: string

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "fatura-cli-"))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it("creates a company, manages its keys and blocks", async () => {
    const created = await fatura(
      dataDir,
      "company",
      "create",
      "--name",
      "Sorveteria Açaí",
      "--cnpj",
      "11.444.777/0001-61",
      "--email",
      "oi@acai.example",
      "--json"
    )
    const company = JSON.parse(created.stdout.trim().split("\n").at(-1)!) as {
      company_id: number
      secret_key: string
      webhook_secret: string
    }
    expect(company.company_id).toBeGreaterThan(0)
    expect(company.secret_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/)
    expect(company.webhook_secret).toMatch(/^whsec_/)

    const live = await fatura(dataDir, "keys", "create", String(company.company_id), "--live")
    expect(live.stdout.trim().split("\n")[0]).toMatch(/^sk_live_[0-9A-Za-z]{32}$/)

    const listed = await fatura(dataDir, "keys", "list", String(company.company_id))
    expect(listed.stdout).toContain(company.secret_key.slice(0, 16))
    expect(listed.stdout).not.toContain(company.secret_key)
    expect(listed.stdout).toMatch(/live/)

    const revoked = await fatura(dataDir, "keys", "revoke", company.secret_key.slice(0, 16))
    expect(revoked.stdout).toContain("revoked 1")
    const again = await fatura(dataDir, "keys", "list", String(company.company_id))
    expect(again.stdout).toMatch(/revoked/)

    const blocked = await fatura(dataDir, "company", "block", String(company.company_id), "pix")
    expect(blocked.stdout).toContain("pix blocked")
  })

  it("prints the live webhook secret with a company's first live key only", async () => {
    const created = await fatura(
      dataDir,
      "company",
      "create",
      "--name",
      "Quitanda Boa",
      "--cnpj",
      "11.222.333/0001-81",
      "--email",
      "oi@quitanda.example",
      "--json"
    )
    const company = JSON.parse(created.stdout.trim().split("\n").at(-1)!) as {
      company_id: number
      webhook_secret: string
    }
    const first = await fatura(dataDir, "keys", "create", String(company.company_id), "--live")
    const [key, secret, ...rest] = first.stdout.trim().split("\n")
    expect(key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/)
    expect(secret).toMatch(/^live webhook secret {2}whsec_[0-9A-Za-z]{32}$/)
    expect(secret).not.toContain(company.webhook_secret)
    expect(rest.join("\n")).toContain("shown only now")
    const second = await fatura(dataDir, "keys", "create", String(company.company_id), "--live")
    expect(second.stdout.trim()).toMatch(/^sk_live_[0-9A-Za-z]{32}$/)
  })

  it("refuses an invalid CNPJ", async () => {
    await expect(
      fatura(dataDir, "company", "create", "--name", "X", "--cnpj", "11.444.777/0001-62", "--email", "x@y.z")
    ).rejects.toThrow()
  })

  /** The failure of a command that must fail: its exit code and everything it printed. */
  const failureOf = (...args: Array<string>) =>
    fatura(dataDir, ...args).then(
      (success) => {
        throw new Error(`expected a failure, got ${JSON.stringify(success)}`)
      },
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        output: `${error.stdout}${error.stderr}`
      })
    )

  it("refuses a --pix-key of no valid type with a clear message and a failing exit code", async () => {
    for (const [pixKey, why] of [
      ["joão@loja.example", "an email pix key must be plain ASCII"],
      ["529.982.247-24", "a CPF or CNPJ pix key: invalid check digits"],
      ["+1 415 555 0100", "a phone pix key is +55"],
      ["minha chave", "must be a CPF, a CNPJ"]
    ] as const) {
      const failure = await failureOf(
        "company",
        "create",
        "--name",
        "Loja",
        "--cnpj",
        "11.222.333/0001-81",
        "--email",
        "loja@loja.example",
        "--pix-key",
        pixKey
      )
      expect(failure.code).not.toBe(0)
      expect(failure.output).toContain(`Invalid value for flag --pix-key: "${pixKey}"`)
      expect(failure.output).toContain(why)
      expect(failure.output).not.toMatch(/\bat .*\.js:\d+/)
    }
  })

  it("asks for --pix-key when the email cannot be the key, and takes the company with one", async () => {
    const email = `${"a".repeat(65)}@loja.exam.br`
    const args = ["company", "create", "--name", "Loja", "--cnpj", "11.222.333/0001-81", "--email", email]
    const failure = await failureOf(...args)
    expect(failure.code).not.toBe(0)
    expect(failure.output).toContain(`the email ${email} cannot be the company's pix key`)
    expect(failure.output).toContain("at most 77 characters")
    expect(failure.output).toContain("--pix-key")
    expect(failure.output).not.toMatch(/\bat .*\.js:\d+/)
    const created = await fatura(dataDir, ...args, "--pix-key", "11.222.333/0001-81", "--json")
    expect(JSON.parse(created.stdout.trim().split("\n").at(-1)!).company_id).toBeGreaterThan(0)
  })

  it("replaces a company's pix key with a valid one, in canonical form, and refuses any other", async () => {
    const created = await fatura(
      dataDir,
      "company",
      "create",
      "--name",
      "Loja",
      "--cnpj",
      "11.222.333/0001-81",
      "--email",
      "loja@loja.example",
      "--json"
    )
    const companyId = String(JSON.parse(created.stdout.trim().split("\n").at(-1)!).company_id)
    const replaced = await fatura(dataDir, "company", "pix-key", companyId, "+55 (11) 98888-7777")
    expect(replaced.stdout.trim()).toBe(`company ${companyId}: pix key +5511988887777`)
    const refused = await failureOf("company", "pix-key", companyId, "pix@")
    expect(refused.code).not.toBe(0)
    expect(refused.output).toContain("is not a valid email address")
  })

  it("says the version changesets gave the app", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
    const { stdout } = await fatura(dataDir, "--version")
    expect(stdout.trim()).toContain(version)
    expect(version).not.toBe("0.0.0")
  })

  it("migrates idempotently", async () => {
    const first = await fatura(dataDir, "migrate")
    expect(first.stdout).toMatch(/up to date|applied/)
    const second = await fatura(dataDir, "migrate")
    expect(second.stdout).toContain("up to date")
  })
})
