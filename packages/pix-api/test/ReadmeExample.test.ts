// The README's example, run as its reader would run it: a program of its own that imports the built package by name,
// configured by the FATURA_PIX_* lines the local PSP prints.
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startPsp, type TestPsp } from "./support/LocalPsp.js"

const run = promisify(execFile)
const example = new URL("../examples/ChargeAndReadBack.ts", import.meta.url).pathname

let psp: TestPsp
beforeAll(async () => {
  psp = await startPsp()
})
afterAll(() => psp?.stop())

describe("the README's example", () => {
  it("charges, gets the same BR Code when asking again, and reads the charge back", async () => {
    const { stdout } = await run(process.execPath, [example], {
      env: { ...process.env, ...Object.fromEntries(psp.clientSettings) }
    })
    expect(stdout.trim().split("\n")).toEqual([
      "a dynamic BR Code: true",
      "asked again, the same BR Code: true",
      "at the PSP: active, 12345 cents, 0 pix received",
      "a charge never asked for: true"
    ])
  }, 60_000)
})
