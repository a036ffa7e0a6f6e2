// The README's example, run as its reader would run it: a program of its own that imports the built package by name.
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { describe, expect, it } from "@effect/vitest"

const run = promisify(execFile)
const example = new URL("../examples/RegisterBoleto.ts", import.meta.url).pathname

describe("the README's example", () => {
  it("writes a remessa of six records, its segment P carrying the boleto, and refuses to read it as a retorno", async () => {
    const { stdout } = await run(process.execPath, [example])
    expect(stdout.trim().split("\n")).toEqual([
      "6 records of 240 characters",
      "3410001300001P 0100057 0000000721921 1001                11122501            02122026000000000012345",
      "as a retorno: line 1, Código Remessa / Retorno: this is no retorno"
    ])
  }, 60_000)
})
