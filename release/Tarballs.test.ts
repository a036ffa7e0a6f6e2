// The `@fatura/api` README's way to use the libraries before the company registry exists, run as written: its `pack`
// line in this checkout, its `npm install` line in a new project whose `.npmrc` points `@fatura/*` at an address
// where nothing answers (so that the install cannot take them from any registry), then the README's example from
// that project against a server from this checkout.
import { spawn } from "node:child_process"
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectMerchantSucceeded, runMerchant } from "../packages/api/test/support/MerchantRun.js"
import { type FaturaProcess, startFaturaProcess } from "./support/FaturaProcess.js"

const root = new URL("..", import.meta.url).pathname
const readme = readFileSync(join(root, "packages/api/README.md"), "utf8")
const section = readme.slice(readme.indexOf("### Before the company registry exists"))
const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? ""
const line = (pattern: RegExp) => block.split("\n").find((text) => pattern.test(text)) ?? ""
const packLine = line(/ pack /)
const installLine = line(/^npm install /)
/** Where the README packs the tarballs; each run here uses a directory of its own instead. */
const readmePacks = "/tmp/fatura-packs"

/** A shell line to its end, with all it printed. */
const sh = (command: string, cwd: string) =>
  new Promise<{ exitCode: number | null; output: string }>((resolve, reject) => {
    const child = spawn("sh", ["-c", command], { cwd })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.once("error", reject)
    child.once("exit", (exitCode) => resolve({ exitCode, output }))
  })

describe("the libraries from tarballs, before the registry exists", () => {
  const temporary: Array<string> = []
  let packs: string
  let project: string
  let server: FaturaProcess | undefined

  beforeAll(async () => {
    packs = mkdtempSync(join(tmpdir(), "fatura-packs-"))
    project = mkdtempSync(join(tmpdir(), "fatura-tarballs-"))
    temporary.push(packs, project)
    writeFileSync(
      join(project, "package.json"),
      `${JSON.stringify({ name: "merchant", private: true, type: "module" }, null, 2)}\n`
    )
    writeFileSync(join(project, ".npmrc"), "@fatura:registry=http://127.0.0.1:9/\n")
    server = await startFaturaProcess()
  })

  afterAll(async () => {
    if (server !== undefined) await server.stop()
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
  })

  it("the README shows a pack line and an install line of tarballs", () => {
    expect(packLine, block).toContain(`--pack-destination ${readmePacks}`)
    expect(installLine, block).toContain(`${readmePacks}/fatura-api-*.tgz`)
  })

  it("pack in this checkout, install in a new project, and run the README's example", async () => {
    const packed = await sh(packLine.replaceAll(readmePacks, packs), root)
    expect(packed.exitCode, packed.output).toBe(0)
    expect(readdirSync(packs).sort()).toEqual([
      expect.stringMatching(/^fatura-api-\d+\.\d+\.\d+\.tgz$/),
      expect.stringMatching(/^fatura-domain-\d+\.\d+\.\d+\.tgz$/)
    ])
    const installed = await sh(`${installLine.replaceAll(readmePacks, packs)} --no-audit --no-fund`, project)
    expect(installed.exitCode, installed.output).toBe(0)
    expect(readdirSync(join(project, "node_modules/@fatura")).sort()).toEqual(["api", "domain"])
    expect(readdirSync(join(project, "node_modules/@fatura/api")).includes("node_modules")).toBe(false)

    copyFileSync(join(root, "packages/api/examples/Merchant.ts"), join(project, "Merchant.ts"))
    expectMerchantSucceeded(await runMerchant(join(project, "Merchant.ts"), server!, project))
  }, 300_000)
})
