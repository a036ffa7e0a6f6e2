// The README's section on banks, run as a newcomer runs it: the local bank started as its own process (`apps/bank`,
// built), `fatura serve` started with the settings the bank printed and the exchange interval the README gives, then
// every curl and export of the section, in order, with bash and curl. Where the README says "within a few seconds",
// the same read is made again until it shows what the README says; every request must succeed, and what the README
// says came of them must be so: the boleto pending, then registered, then paid with its postback; the withdrawal drawn
// from the boleto balance, then paid by pix with its end-to-end id, the bank's transfer paid too.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Answer, at, commandsOf, eventually, json, reader, readme, section } from "./support/Readme.js"
import { type Receiver, startReceiver } from "./support/Receiver.js"
import { freePort, type ServerProcess, startServer } from "./support/ServerProcess.js"

const heading = "## Banks: boletos and withdrawals through CNAB 240 files"
const bankMain = new URL("../../bank/dist/main.js", import.meta.url).pathname

describe("the README's banks section, as written", () => {
  let bank: ChildProcess
  let bankOutput = ""
  let server: ServerProcess
  let receiver: Receiver
  let dir: string
  let base: string

  /** The bank as the README starts it, once it has printed its settings: those, and its simulator's address. */
  const startBank = async () => {
    bank = spawn(process.execPath, [bankMain], {
      env: {
        ...process.env,
        FATURA_BANK_DIR: join(dir, "bank"),
        FATURA_BANK_SFTP_PORT: "0",
        FATURA_BANK_SIMULATOR_PORT: "0"
      }
    })
    bank.stdout?.on("data", (chunk: Buffer) => {
      bankOutput += chunk.toString()
    })
    bank.stderr?.on("data", (chunk: Buffer) => {
      bankOutput += chunk.toString()
    })
    const simulator = await eventually(
      () => /^bank simulator: (\S+)$/m.exec(bankOutput)?.[1],
      60_000,
      `the bank printed:\n${bankOutput}`
    )
    const exports = Object.fromEntries(
      [...bankOutput.matchAll(/^export (\w+)='(.*)'$/gm)].map(([, name, value]) => [name!, value!])
    )
    return { simulator, exports }
  }

  let simulator: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "fatura-readme-bank-"))
    receiver = await startReceiver()
    const started = await startBank()
    simulator = started.simulator
    // "FATURA_BANK_EXCHANGE_INTERVAL=… npx -y pnpm@10.34.9 start", with the exports pasted.
    const [, interval] =
      /^FATURA_BANK_EXCHANGE_INTERVAL="([^"]+)" npx -y pnpm@10\.34\.9 start$/m.exec(section(heading)) ?? []
    expect(interval, "the README starts Fatura with an exchange interval").toBeDefined()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    server = await startServer({
      ...process.env,
      ...started.exports,
      FATURA_BANK_EXCHANGE_INTERVAL: interval!,
      DATABASE_URL: "",
      FATURA_DATA_DIR: join(dir, "fatura"),
      PORT: String(port),
      HOST: "127.0.0.1"
    })
  })

  afterAll(async () => {
    for (const child of [server?.child, bank]) {
      if (child === undefined || child.exitCode !== null) continue
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGTERM")
      await exited
    }
    await receiver?.stop()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it("registers the boleto, pays it at the bank with its postback, and pays the withdrawal by pix", async () => {
    const key = /sk_test_[0-9A-Za-z]{32}/.exec(server.output())?.[0]
    expect(key, server.output()).toBeDefined()
    const { answers, env, run, take } = reader(join(dir))
    const commands = commandsOf(section(heading)).filter((command) => /^(curl|export) /.test(command))
    const local = (command: string) =>
      command
        .replaceAll("http://localhost:3000", base)
        .replaceAll("http://127.0.0.1:4000/postbacks", receiver.url("/postbacks"))
        .replaceAll("http://127.0.0.1:4010", simulator)

    /** Reads again, as the README's reader does a few seconds later, until `holds` does. */
    const readAgainUntil = (command: string, holds: (answer: unknown) => boolean, what: string) =>
      eventually(
        async () => {
          const answer = await run(command)
          return holds(json(answer)) ? answer : undefined
        },
        60_000,
        `${what}\n${server.output().slice(-4_000)}\n${bankOutput.slice(-2_000)}`
      )

    let read: string | undefined
    for (const written of commands) {
      const command = local(written)
      const answer = await take(command, key!)
      if (answer === undefined) continue
      if (command.includes("/api/v2/invoices -H")) {
        // "Its `boleto.registration` is `pending`, its `bank_code` the bank's, `999`."
        expect(at(json(answer), "boleto.registration")).toBe("pending")
        expect(at(json(answer), "boleto.bank_code")).toBe("999")
      }
      if (command.includes("/api/v2/invoices?id=$BOLETO")) {
        read = command
        // "It shows `"registration": "registered"`."
        await readAgainUntil(command, (body) => at(body, "boleto.registration") === "registered", "never registered")
      }
      if (command.includes("/boletos/pay")) {
        // "A few seconds later the same read shows it `paid`, and the `invoice.paid` postback reaches `postback_url`."
        await readAgainUntil(read!, (body) => at(body, "status") === "paid", "never paid")
        await eventually(
          () => (postbacksOf(env.BOLETO!).includes("invoice.paid") ? true : undefined),
          30_000,
          `no invoice.paid postback: ${postbacksOf(env.BOLETO!)}`
        )
      }
      if (command.includes("-d '{ \"amount\": 10000 }'")) {
        // "It drew 10 367 (the amount and its fee) from `balance_bank_slip`."
        expect(at(json(answer), "sources")).toEqual([{ balance: "bank_slip", amount: 10_367 }])
      }
      if (command.includes("/api/v2/withdrawals/$PAYOUT")) {
        // "… makes it `paid`, with `rail` `pix` and the pix's `end_to_end_id`."
        const paid = await readAgainUntil(command, (body) => at(body, "status") === "paid", "withdrawal never paid")
        expect(at(json(paid), "rail")).toBe("pix")
        expect(at(json(paid), "end_to_end_id")).toMatch(/^E\d{8}\d{12}\w{11}$/)
      }
    }
    expect(env.BOLETO).toBeDefined()
    expect(env.PAYOUT).toBeDefined()
    // "The bank's side of it all": the transfer, paid.
    const transfers = answers.find((answer: Answer) => answer.command.endsWith("/transfers"))
    expect(
      (json(transfers!) as Array<{ status: string; amount: number }>).map((one) => [one.status, one.amount])
    ).toEqual([["paid", 10_000]])
    expect(readme).toContain("the directory the bank printed after `bank files:`")
    expect(bankOutput).toMatch(/^bank files: \S+$/m)
  }, 240_000)

  /** The event types the receiver got for the invoice `secureId`. */
  const postbacksOf = (secureId: string) =>
    receiver
      .at("/postbacks")
      .filter((arrival) => (JSON.parse(arrival.body) as { data: { secureId?: string } }).data.secureId === secureId)
      .map((arrival) => arrival.headers["x-fatura-event-type"])
})
