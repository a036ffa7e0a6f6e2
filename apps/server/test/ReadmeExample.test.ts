// The README's example, run as its reader would run it: the shell commands, from the repository's root, on an embedded
// database of their own.
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"

const run = promisify(execFile)
const root = new URL("../../..", import.meta.url).pathname
const example = new URL("../examples/company.sh", import.meta.url).pathname

describe("the README's example", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "fatura-readme-"))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it("registers a company and prints its id, test secret key and test webhook secret", async () => {
    const { stdout } = await run("sh", [example], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: "", FATURA_DATA_DIR: dataDir }
    })
    expect(stdout).toMatch(/company id {11}1\n/)
    expect(stdout).toMatch(/test secret key {6}sk_test_[0-9A-Za-z]{32}\n/)
    expect(stdout).toMatch(/test webhook secret {2}whsec_[0-9A-Za-z]{32}\n/)
  }, 120_000)
})
