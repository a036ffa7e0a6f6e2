// The README's example, run as its reader would run it: the shell command, from the repository's root, next to a
// server on an embedded database of its own, with the key and webhook secret that server printed.
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const run = promisify(execFile)
const root = new URL("../../..", import.meta.url).pathname
const server = new URL("../../server/dist/main.js", import.meta.url).pathname
const example = new URL("../examples/run.sh", import.meta.url).pathname

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

describe("the README's example", () => {
  let dataDir: string
  let fatura: ChildProcess
  let output = ""
  let port: number

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "fatura-readme-"))
    port = await freePort()
    fatura = spawn(process.execPath, [server, "serve"], {
      env: { ...process.env, DATABASE_URL: "", FATURA_DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" }
    })
    fatura.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    const deadline = Date.now() + 45_000
    while (!/Listening on/.test(output)) {
      if (Date.now() > deadline || fatura.exitCode !== null) throw new Error(`the server did not start:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })

  afterAll(async () => {
    if (fatura.exitCode === null) {
      const exited = new Promise((resolve) => fatura.once("exit", resolve))
      fatura.kill("SIGTERM")
      await exited
    }
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("creates an invoice, has it paid, verifies its postbacks and stops", async () => {
    const { stdout } = await run("sh", [example], {
      cwd: root,
      env: {
        ...process.env,
        FATURA_URL: `http://127.0.0.1:${port}`,
        FATURA_KEY: /sk_test_[0-9A-Za-z]{32}/.exec(output)?.[0],
        FATURA_WEBHOOK_SECRET: /whsec_[0-9A-Za-z]{32}/.exec(output)?.[0],
        EXAMPLE_PORT: String(await freePort())
      }
    })
    expect(stdout).toMatch(/verified invoice\.paid evt_[0-9a-f-]{36} for invoice [0-9a-f-]{36}: paid/)
    expect(stdout).toMatch(/paid: done/)
    expect(stdout).not.toMatch(/refused a postback/)
  })
})
