// The README's examples, run as its reader would: the PSP started by its shell command from the repository's root
// (printing its settings as export lines), then the curl walkthroughs — an immediate charge, then charges with a due
// date — with those settings, then SIGTERM.
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { existsSync, rmSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiPixContract } from "./support/ApiPixContract.js"
import { eventually } from "./support/Eventually.js"
import { freshDir } from "./support/TestPsp.js"

const root = new URL("../../..", import.meta.url).pathname
const startExample = new URL("../examples/pix-psp.sh", import.meta.url).pathname
const curlExample = new URL("../examples/curl.sh", import.meta.url).pathname
const cobvExample = new URL("../examples/cobv.sh", import.meta.url).pathname
const built = new URL("../dist/main.js", import.meta.url).pathname

const names = [
  "FATURA_PIX_PROVIDER",
  "FATURA_PIX_API_URL",
  "FATURA_PIX_OAUTH_URL",
  "FATURA_PIX_CLIENT_ID",
  "FATURA_PIX_CLIENT_SECRET",
  "FATURA_PIX_CERT",
  "FATURA_PIX_CERT_KEY",
  "FATURA_PIX_CA",
  "FATURA_PIX_KEY"
]

/** Whether any process of the group led by `pid` is still running. */
const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

/** `export NAME=value` lines, values as a POSIX shell reads a plain or single-quoted word. */
const readExports = (text: string) =>
  Object.fromEntries(
    [...text.matchAll(/^export (\w+)=(.*)$/gm)].map(([, name, word]) => [
      name,
      word?.startsWith("'") ? word.slice(1, -1).replace(/'\\''/g, "'") : word
    ])
  ) as Record<string, string>

describe("the README's examples", () => {
  let psp: ChildProcess
  const dir = freshDir()
  let stdout = ""
  let stderr = ""

  beforeAll(() => {
    if (!existsSync(built)) throw new Error(`${built} is missing: build the app first (npx -y pnpm@10.34.9 run build)`)
    // A group of its own, so that the signal reaches the PSP under the shell and pnpm, as Ctrl-C would.
    psp = spawn("sh", [startExample], {
      cwd: root,
      detached: true,
      env: { ...process.env, PIX_PSP_DIR: dir, PIX_PSP_PORT: "0" }
    })
    psp.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    psp.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
    })
  })
  afterAll(async () => {
    if (psp?.pid !== undefined && groupAlive(psp.pid)) process.kill(-psp.pid, "SIGKILL")
    rmSync(dir, { recursive: true, force: true })
  })

  it("starts the PSP, which prints what a client needs, serves the curl walkthroughs, and stops on SIGTERM", async () => {
    await eventually(
      "the PSP to print its settings",
      () => {
        if (psp.exitCode !== null) throw new Error(`the PSP exited:\n${stdout}\n${stderr}`)
        // The settings on stdout (the last one whole: a pipe may hand a line over in pieces) and the log line on
        // stderr come down two pipes, either first.
        const printed = /^export FATURA_PIX_KEY=.*\n/m.test(stdout)
        return printed && stderr.includes("pix-psp started") ? true : undefined
      },
      60_000
    )
    const exports = readExports(stdout)
    expect(Object.keys(exports)).toEqual(names)
    expect(exports.FATURA_PIX_PROVIDER).toBe("bcb")
    expect(exports.FATURA_PIX_API_URL).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(exports.FATURA_PIX_OAUTH_URL).toBe(`${exports.FATURA_PIX_API_URL}/oauth/token`)
    for (const file of [exports.FATURA_PIX_CERT, exports.FATURA_PIX_CERT_KEY, exports.FATURA_PIX_CA]) {
      expect(file?.startsWith("/") && existsSync(file)).toBe(true)
    }

    const walk = (example: string) =>
      new Promise<string>((resolve, reject) =>
        execFile("sh", [example], { cwd: root, env: { ...process.env, ...exports } }, (error, out, err) =>
          error === null ? resolve(out) : reject(new Error(`${error.message}\n${out}\n${err}`))
        )
      )
    const walkthrough = await walk(curlExample)
    const [created, jws, paid, read] = walkthrough.trim().split("\n")
    const charge = JSON.parse(created ?? "")
    expect(charge).toMatchObject({ status: "ATIVA", valor: { original: "10.00" }, chave: exports.FATURA_PIX_KEY })
    expect(jws?.split(".")).toHaveLength(3)
    expect(JSON.parse(paid ?? "")).toMatchObject({ charge: { txid: charge.txid, status: "CONCLUIDA" } })
    expect(JSON.parse(read ?? "")).toMatchObject({ txid: charge.txid, status: "CONCLUIDA", pix: [{ valor: "10.00" }] })
    // What curl was answered is what the document says (curl's --fail-with-body vouched for a 2xx status).
    const contract = await ApiPixContract.load()
    contract.check({
      method: "GET",
      target: `/cob/${charge.txid}`,
      requestHeaders: {},
      status: 200,
      responseHeaders: { "content-type": "application/json" },
      responseBody: read ?? ""
    })

    const [dueCreated, dueJws, duePaid, dueRead, removed] = (await walk(cobvExample)).trim().split("\n")
    const dueCharge = JSON.parse(dueCreated ?? "")
    expect(dueCharge).toMatchObject({ status: "ATIVA", loc: { tipoCob: "cobv" }, valor: { original: "25.00" } })
    const payload = JSON.parse(Buffer.from(dueJws?.split(".")[1] ?? "", "base64url").toString("utf8"))
    expect(payload).toMatchObject({ txid: dueCharge.txid, calendario: dueCharge.calendario, valor: { final: "25.00" } })
    expect(JSON.parse(duePaid ?? "")).toMatchObject({ charge: { txid: dueCharge.txid, status: "CONCLUIDA" } })
    expect(JSON.parse(dueRead ?? "")).toMatchObject({ status: "CONCLUIDA", pix: [{ txid: dueCharge.txid }] })
    expect(JSON.parse(removed ?? "")).toMatchObject({ status: "REMOVIDA_PELO_USUARIO_RECEBEDOR", revisao: 1 })
    contract.check({
      method: "GET",
      target: `/cobv/${dueCharge.txid}`,
      requestHeaders: {},
      status: 200,
      responseHeaders: { "content-type": "application/json" },
      responseBody: dueRead ?? ""
    })
    expect(contract.problems).toEqual([])

    const pid = psp.pid ?? 0
    process.kill(-pid, "SIGTERM")
    await eventually("the PSP to stop", () => (groupAlive(pid) ? undefined : true), 30_000)
  }, 120_000)
})
