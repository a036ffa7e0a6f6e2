// SPEC 15.3 under SIGKILL: `fatura-worker`, which exchanges the files with the bank against Postgres, killed while a
// remessa it uploaded is at the bank and not yet recorded sent — the local bank (apps/bank, a process of its own) made
// slow to acknowledge a remessa, so that the moment is certain — then started again. Nothing is sent twice: the bank
// holds each of Fatura's remessas once, registered each boleto once and paid the withdrawal once. Nothing is lost:
// every boleto is registered and the withdrawal paid. Every remessa is recorded sent and every retorno read, once.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { type Connection, connect, createDatabase } from "./support/Cluster.js"
import { boletoPayer, payer } from "./support/Journal.js"
import { type Company, createCompany, fatura, type Service, serve } from "./support/Service.js"
import { type Worker, workerOn } from "./support/Worker.js"

const boletos = 5
const withdrawal = 1_000
const bankMain = new URL("../../bank/dist/main.js", import.meta.url).pathname

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface LocalBank {
  readonly dir: string
  readonly settings: Record<string, string>
  readonly simulate: (method: string, path: string, body?: unknown) => Promise<any>
  readonly stop: () => Promise<void>
}

/** The local bank as its own process, acting on remessas every 300 ms, once it printed its settings. */
const startBank = async (dir: string): Promise<LocalBank> => {
  let printed = ""
  const child: ChildProcess = spawn(process.execPath, [bankMain], {
    env: {
      ...process.env,
      FATURA_BANK_DIR: dir,
      FATURA_BANK_SFTP_PORT: "0",
      FATURA_BANK_SIMULATOR_PORT: "0",
      FATURA_BANK_CYCLE_MILLIS: "300"
    }
  })
  child.stdout?.on("data", (chunk: Buffer) => {
    printed += chunk.toString()
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    printed += chunk.toString()
  })
  const deadline = Date.now() + 60_000
  while (!/^bank simulator: \S+$/m.test(printed)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the bank did not start:\n${printed}`)
    await sleep(50)
  }
  const simulator = /^bank simulator: (\S+)$/m.exec(printed)![1]!
  const settings = Object.fromEntries(
    [...printed.matchAll(/^export (\w+)='(.*)'$/gm)].map(([, name, value]) => [name!, value!])
  )
  const simulate = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${simulator}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    expect(response.status, `${method} ${path}`).toBeLessThan(300)
    return response.json()
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once("exit", resolve))
    child.kill("SIGTERM")
    await exited
  }
  return { dir, settings, simulate, stop }
}

export const bankCrashScenario = () =>
  describe("SIGKILL of the worker between uploading a remessa and recording it sent", () => {
    let database: Connection
    let bank: LocalBank
    let service: Service
    let worker: Worker
    let company: Company
    const invoices: Array<string> = []
    let withdrawalId: string
    let unrecorded: ReadonlyArray<string>

    /** The remessas at the bank that Fatura has not recorded sent. */
    const atBankUnrecorded = async () => {
      const atBank = new Set(readdirSync(join(bank.dir, "files", "remessa")).filter((name) => name.endsWith(".REM")))
      const written = await database.query(
        "SELECT name FROM bank_files WHERE direction = 'remessa' AND status = 'written'"
      )
      return written.map((row) => row.name as string).filter((name) => atBank.has(name))
    }

    beforeAll(async () => {
      const { url } = await createDatabase("bank_crash")
      database = connect(url)
      bank = await startBank(mkdtempSync(join(tmpdir(), "fatura-bank-crash-")))
      service = await serve("bank-crash", url, bank.settings)
      company = await createCompany(url, "Boletos Crash Ltda")
      await fatura(
        url,
        "company",
        "bank-account",
        String(company.id),
        "--bank-code",
        "341",
        "--agency",
        "0001",
        "--account",
        "12345678",
        "--digit",
        "9",
        "--type",
        "corrente"
      )
      const key = company.testKey
      // A pix sale, available at once: what the withdrawal draws from.
      const sale = await service.request("POST", "/api/v2/invoices", {
        key,
        body: { method: "pix", total_price_cents: 10_000, payer }
      })
      const paid = await service.request("POST", "/api/v2/sandbox/invoices/pay", {
        key,
        body: { id: sale.body.secureId }
      })
      expect([paid.status, paid.body?.status], paid.text).toEqual([200, "paid"])
      for (let index = 0; index < boletos; index++) {
        const boleto = await service.request("POST", "/api/v2/invoices", {
          key,
          body: { method: "bank_slip", total_price_cents: 2_000 + index, payer: boletoPayer }
        })
        expect([boleto.status, boleto.body?.boleto?.registration], boleto.text).toEqual([201, "pending"])
        invoices.push(boleto.body.secureId)
      }
      const asked = await service.request("POST", "/api/v2/withdrawals", { key, body: { amount: withdrawal } })
      expect(asked.status, asked.text).toBe(201)
      withdrawalId = asked.body.id

      // The bank takes a remessa at once and acknowledges it a minute later: the worker waits on its upload.
      await bank.simulate("POST", "/switches", { receipt_delay_ms: 60_000 })
      worker = workerOn(url, { ...bank.settings, FATURA_BANK_EXCHANGE_INTERVAL: "1 second" })
      const starting = worker.start()
      starting.catch(() => undefined)
      const deadline = Date.now() + 60_000
      for (;;) {
        unrecorded = await atBankUnrecorded()
        if (unrecorded.length > 0) break
        if (Date.now() > deadline) throw new Error(`no remessa reached the bank:\n${worker.output()}`)
        await sleep(50)
      }
      await worker.kill()
      await starting
      await bank.simulate("POST", "/switches", { receipt_delay_ms: 0 })

      await worker.start()
      const settled = Date.now() + 60_000
      for (;;) {
        const [state] = await database.query(
          `SELECT (SELECT count(*) FROM boleto_registrations r JOIN invoices i ON i.id = r.invoice_id
                   WHERE i.company_id = $1 AND r.status = 'registered')::int AS registered,
                  (SELECT status FROM withdrawals WHERE id = $2) AS withdrawal`,
          [company.id, withdrawalId]
        )
        if (state?.registered === boletos && state?.withdrawal === "paid") break
        if (Date.now() > settled) throw new Error(`not settled: ${JSON.stringify(state)}\n${worker.output()}`)
        await sleep(200)
      }
      // Another exchange or two, which must find nothing more to do.
      await sleep(2_500)
      await worker.stop()
    }, 600_000)

    it("killed the worker with a remessa at the bank that Fatura had not recorded sent", () => {
      console.info(`bank crash: killed with ${unrecorded.join(", ")} at the bank and unrecorded`)
      expect(unrecorded.length).toBeGreaterThan(0)
      expect(worker.output()).toContain("remessa found at the bank already")
    })

    it("sent each remessa once, and recorded every one sent and every retorno read", async () => {
      const files = await database.query("SELECT name, direction, status FROM bank_files ORDER BY name")
      const remessas = files.filter((file) => file.direction === "remessa")
      const atBank = readdirSync(join(bank.dir, "files", "remessa"))
        .filter((name) => !name.endsWith(".part"))
        .sort()
      expect(remessas.map((file) => file.name)).toEqual(atBank)
      expect(remessas.every((file) => file.status === "sent")).toBe(true)
      const retornos = readdirSync(join(bank.dir, "files", "retorno")).sort()
      expect(files.filter((file) => file.direction === "retorno").map((file) => [file.name, file.status])).toEqual(
        retornos.map((name) => [name, "read"])
      )
    })

    it("registered every boleto once, at the bank and in Fatura, and paid the withdrawal once", async () => {
      const book = JSON.parse(readFileSync(join(bank.dir, "book.json"), "utf8")) as {
        boletos: Record<string, { status: string; registrations: number }>
        transfers: ReadonlyArray<{ reference: string; status: string }>
      }
      expect(Object.values(book.boletos).map((boleto) => [boleto.status, boleto.registrations])).toEqual(
        Array.from({ length: boletos }, () => ["registered", 1])
      )
      expect(book.transfers.map((transfer) => transfer.status)).toEqual(["paid"])
      for (const secureId of invoices) {
        const events = await database.query(
          "SELECT type FROM events WHERE company_id = $1 AND data->>'secureId' = $2 ORDER BY created_at, type",
          [company.id, secureId]
        )
        expect(events.map((event) => event.type)).toEqual(["invoice.created", "invoice.boleto_registered"])
      }
      const events = await database.query(
        "SELECT type FROM events WHERE company_id = $1 AND data->>'id' = $2 ORDER BY created_at, type",
        [company.id, withdrawalId]
      )
      expect(events.map((event) => event.type)).toEqual([
        "withdrawal.created",
        "withdrawal.processing",
        "withdrawal.paid"
      ])
      await service.stop()
      await bank.stop()
      rmSync(bank.dir, { recursive: true, force: true })
      await database.close()
    })
  })
