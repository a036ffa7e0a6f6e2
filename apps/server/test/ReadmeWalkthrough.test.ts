// The README's walkthrough, the payer's side and the postbacks, run as a newcomer runs them: every curl and export
// of those sections, in order, with bash and curl, against `fatura serve` on a fresh embedded database. What the README
// asks its reader to fill in (`export INVOICE=<secureId from the answer>`, `<token from the answer>`, the key the
// server printed) is filled in from what came back, every request must succeed, and what the README says came of them
// (the balance after the refunds, the postbacks the receiver prints) must be so.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { at, commandsOf, json, reader, readme, section } from "./support/Readme.js"
import { type Receiver, startReceiver } from "./support/Receiver.js"
import { freePort, type ServerProcess, startServer } from "./support/ServerProcess.js"

describe("the README's walkthrough, payer's side and postbacks, as written", () => {
  let server: ServerProcess
  let receiver: Receiver
  let dataDir: string
  let workDir: string
  let base: string

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "fatura-walkthrough-"))
    workDir = mkdtempSync(join(tmpdir(), "fatura-walkthrough-reader-"))
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    receiver = await startReceiver()
    server = await startServer({
      ...process.env,
      DATABASE_URL: "",
      FATURA_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1"
    })
  })

  afterAll(async () => {
    if (server?.child.exitCode === null) {
      const exited = new Promise((resolve) => server.child.once("exit", resolve))
      server.child.kill("SIGTERM")
      await exited
    }
    await receiver?.stop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(workDir, { recursive: true, force: true })
  })

  it("runs every command, each request succeeds, and what the README says of them holds", async () => {
    const key = /sk_test_[0-9A-Za-z]{32}/.exec(server.output())?.[0]
    expect(key, server.output()).toBeDefined()
    const { answers, env, take } = reader(workDir)

    // The requests and what the reader keeps of their answers; the receiver is the test's own, and the example
    // merchant has tests of its own (apps/example).
    const commands = [
      ...commandsOf(section("## Walkthrough")),
      ...commandsOf(section("## The payer's side")),
      ...commandsOf(section("## Postbacks"))
    ].filter((command) => /^(curl|export) /.test(command))
    let afterRefunds: unknown
    for (const written of commands) {
      const command = written
        .replaceAll("http://localhost:3000", base)
        .replaceAll("http://127.0.0.1:4000/postbacks", receiver.url("/postbacks"))
      const answer = await take(command, key!)
      if (answer === undefined) continue
      const previous = answers.at(-2)?.command ?? ""
      if (command.includes("/api/v2/company") && previous.includes("/refund")) afterRefunds = json(answer)
    }
    expect(commands.length).toBeGreaterThan(20)

    // "The company now shows `balance_pix` 48 759 (…)", after the two refunds.
    const stated = /The company now shows `balance_pix` ([\d ]+)/.exec(readme)?.[1]
    expect(stated, "the README states the balance after the refunds").toBeDefined()
    expect(at(afterRefunds, "balance_pix")).toBe(Number(stated!.replaceAll(" ", "")))
    // "The statement lists the ledger entries behind those balances": the pix entries add up to that balance.
    const statement = answers.find((answer) => answer.command.includes("/api/v2/balance/operations?balance=pix"))
    const entries = at(json(statement!), "data") as Array<{ direction: string; amount: number; balance: string }>
    expect(entries.every((entry) => entry.balance === "pix")).toBe(true)
    const signed = entries.map((entry) => (entry.direction === "credit" ? entry.amount : -entry.amount))
    expect(signed.reduce((sum, amount) => sum + amount, 0)).toBe(Number(stated!.replaceAll(" ", "")))

    // "the card sale's three installments", waiting; then released: "`waiting_funds_card` 0 and `balance_card` 56 967".
    const scheduled = answers.find((answer) => answer.command.includes("/api/v2/receivables?invoice_id="))
    const installments = at(json(scheduled!), "data") as Array<{ status: string; net_amount: number }>
    expect(installments.map((receivable) => receivable.status)).toEqual([
      "waiting_funds",
      "waiting_funds",
      "waiting_funds"
    ])
    const releasedTo = /`waiting_funds_card` 0 and `balance_card` ([\d ]+)/.exec(readme)?.[1]
    expect(releasedTo, "the README states the card balance after the release").toBeDefined()
    const released = answers.find((answer) => answer.command.includes("/api/v2/sandbox/receivables/release"))
    expect(at(json(released!), "enterprise.waiting_funds_card")).toBe(0)
    expect(at(json(released!), "enterprise.balance_card")).toBe(Number(releasedTo!.replaceAll(" ", "")))
    expect(installments.reduce((sum, receivable) => sum + receivable.net_amount, 0)).toBe(
      Number(releasedTo!.replaceAll(" ", ""))
    )

    // "the endpoint receives `withdrawal.created`, `withdrawal.processing` and `withdrawal.paid`".
    const withdrawn = env.WITHDRAWAL
    expect(withdrawn, "the README keeps the withdrawal it makes").toBeDefined()
    const withdrawalEvents = () =>
      receiver
        .at("/postbacks")
        .filter((arrival) => (JSON.parse(arrival.body) as { data: { id: unknown } }).data.id === withdrawn)
        .map((arrival) => arrival.headers["x-fatura-event-type"])
    const withdrawalDeadline = Date.now() + 30_000
    while (!withdrawalEvents().includes("withdrawal.paid") && Date.now() < withdrawalDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(withdrawalEvents()).toEqual(
      expect.arrayContaining(["withdrawal.created", "withdrawal.processing", "withdrawal.paid"])
    )
    // "its `sources` saying it drew 10 367 from the pix balance", "the company's `balance_pix` is now 38 392", as read
    // right after it.
    const withdrawnTo = /the company's `balance_pix` is now\s+([\d ]+)/.exec(readme)?.[1]
    expect(withdrawnTo, "the README states the pix balance after the withdrawal").toBeDefined()
    const withdrawal = answers.find((answer) => answer.command.includes("-d '{ \"amount\": 10000 }'"))
    expect(at(json(withdrawal!), "sources")).toEqual([{ balance: "pix", amount: 10_367 }])
    const readBack = answers.findIndex((answer) => answer.command.includes("/api/v2/withdrawals/$WITHDRAWAL"))
    expect(at(json(answers[readBack + 1]!), "balance_pix")).toBe(Number(withdrawnTo!.replaceAll(" ", "")))

    // "the receiver prints `invoice.created` and `invoice.paid`", in whichever order they are delivered.
    const deadline = Date.now() + 30_000
    const types = () => receiver.at("/postbacks").map((arrival) => arrival.headers["x-fatura-event-type"])
    while (!(types().includes("invoice.created") && types().includes("invoice.paid")) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(types()).toEqual(expect.arrayContaining(["invoice.created", "invoice.paid"]))

    // "the receiver gets the `invoice.paid` of an invoice that names no URL", through the webhook endpoint.
    const subscribed = env.SUBSCRIBED
    expect(subscribed, "the README keeps the invoice the endpoint hears of").toBeDefined()
    const heardOf = () =>
      receiver
        .at("/postbacks")
        .filter((arrival) => (JSON.parse(arrival.body) as { data: { secureId: string } }).data.secureId === subscribed)
        .map((arrival) => arrival.headers["x-fatura-event-type"])
    while (!heardOf().includes("invoice.paid") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    // Subscribed to `invoice.paid` and `invoice.refunded` alone: not to its `invoice.created`.
    expect(heardOf()).toEqual(["invoice.paid"])
  }, 180_000)
})
