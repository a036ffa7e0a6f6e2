// The README's example, run as its reader would run it: a program of its own that imports the built package by name.
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { describe, expect, it } from "@effect/vitest"

const run = promisify(execFile)
const example = new URL("../examples/InMemory.ts", import.meta.url).pathname

describe("the README's example", () => {
  it("opens an in-memory database, rolls a failed transaction back and sums what was committed", async () => {
    const { stdout } = await run(process.execPath, [example])
    expect(stdout.trim().split("\n")).toEqual([
      "rolled back: the payment provider said no",
      "2 paid invoices, 62345 cents"
    ])
  }, 60_000)
})
