// The README's example runs as a consumer would run it: Node, on the built package, in a process of its own.
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "@effect/vitest"

const packageDir = fileURLToPath(new URL("..", import.meta.url))

describe("examples", () => {
  // Two boots of the embedded database on disk: slower than the in-memory ones of the other suites.
  it("EmbeddedDatabase keeps a company across a close and a reopen of the embedded database", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["examples/EmbeddedDatabase.ts"], {
      cwd: packageDir
    })
    expect(stdout.trim().split("\n")).toEqual(["registered company 1: Loja Exemplo", "after reopening: Loja Exemplo"])
  }, 120_000)
})
