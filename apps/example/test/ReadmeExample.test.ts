// The README's example, run as its reader would run it: the shell command, from the repository's root, next to a
// server on an embedded database of its own, with the key and webhook secret that server printed.
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FaturaProcess, freePort, startFatura } from "./support/FaturaProcess.js"

const run = promisify(execFile)
const root = new URL("../../..", import.meta.url).pathname
const example = new URL("../examples/run.sh", import.meta.url).pathname

describe("the README's example", () => {
  let fatura: FaturaProcess

  beforeAll(async () => {
    fatura = await startFatura()
  })

  afterAll(() => fatura?.stop())

  it("creates an invoice, has it paid, verifies its postbacks and stops", async () => {
    const { stdout } = await run("sh", [example], {
      cwd: root,
      env: {
        ...process.env,
        FATURA_URL: `http://127.0.0.1:${fatura.port}`,
        FATURA_KEY: /sk_test_[0-9A-Za-z]{32}/.exec(fatura.output())?.[0],
        FATURA_WEBHOOK_SECRET: /whsec_[0-9A-Za-z]{32}/.exec(fatura.output())?.[0],
        EXAMPLE_PORT: String(await freePort())
      }
    })
    expect(stdout).toMatch(/verified invoice\.paid evt_[0-9a-f-]{36} for invoice [0-9a-f-]{36}: paid/)
    expect(stdout).toMatch(/paid: done/)
    expect(stdout).not.toMatch(/refused a postback/)
  }, 120_000)
})
