// The README's example, run as its reader would: the bank started by its shell command from the repository's root,
// printing its settings as export lines and where it keeps its files; signed in to over SFTP with them; then SIGTERM.
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { list, signIn } from "./support/Bank.js"

const root = new URL("../../..", import.meta.url).pathname
const example = new URL("../examples/bank.sh", import.meta.url).pathname
const built = new URL("../dist/main.js", import.meta.url).pathname

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

let stdout = ""
let stderr = ""

const waitFor = async <A>(what: string, probe: () => A | undefined, ms: number): Promise<A> => {
  const deadline = Date.now() + ms
  for (;;) {
    const found = probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms\n${stdout}\n${stderr}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe("the README's example", () => {
  let bank: ChildProcess
  const dir = mkdtempSync(join(tmpdir(), "fatura-bank-readme-"))

  beforeAll(() => {
    if (!existsSync(built)) throw new Error(`${built} is missing: build the app first (npx -y pnpm@10.34.9 run build)`)
    bank = spawn("sh", [example], {
      cwd: root,
      detached: true,
      env: { ...process.env, FATURA_BANK_DIR: dir, FATURA_BANK_SFTP_PORT: "0", FATURA_BANK_SIMULATOR_PORT: "0" }
    })
    bank.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    bank.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
    })
  })
  afterAll(() => {
    if (bank?.pid !== undefined && groupAlive(bank.pid)) process.kill(-bank.pid, "SIGKILL")
    rmSync(dir, { recursive: true, force: true })
  })

  it("starts the bank, which prints its settings and its files' directory, takes its client, and stops on SIGTERM", async () => {
    const simulator = await waitFor(
      "the bank to print its settings",
      () => /^bank simulator: (\S+)$/m.exec(stdout)?.[1],
      60_000
    )
    const exports = Object.fromEntries(
      [...stdout.matchAll(/^export (\w+)='(.*)'$/gm)].map(([, name, value]) => [name!, value!.replace(/'\\''/g, "'")])
    )
    expect(exports.FATURA_BANK).toBe("cnab240")
    expect(stdout).toContain(`bank files: ${dir}/files\n`)
    const session = await signIn(exports)
    expect(await list(session.sftp, "/")).toEqual(["remessa", "retorno"])
    session.end()
    expect((await fetch(`${simulator}/boletos`)).status).toBe(200)
    const pid = bank.pid ?? 0
    process.kill(-pid, "SIGTERM")
    await waitFor("the bank to stop", () => (groupAlive(pid) ? undefined : true), 30_000)
  }, 120_000)
})
