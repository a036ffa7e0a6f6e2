// The README's example, run as its reader would run it: a program of its own that imports the built package by name.
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { hasError, parsePix } from "pix-utils"

const run = promisify(execFile)
const example = new URL("../examples/PixInvoice.ts", import.meta.url).pathname

describe("the README's example", () => {
  it("refuses a CPF with a wrong check digit, splits the fee and writes a BR Code a pix library reads", async () => {
    const { stdout } = await run(process.execPath, [example])
    const lines = stdout.trim().split("\n")
    expect(lines.slice(0, 3)).toEqual([
      "529.982.247-24 is refused: invalid check digits",
      "payer: cpf 529.982.247-25",
      "amount R$ 123,45: fee R$ 2,46, the seller keeps R$ 120,99"
    ])
    // What the README shows it prints.
    expect(lines[3]).toBe(
      "pix: 00020101021226360014br.gov.bcb.pix0114+55119888877775204000053039865406123.455802BR" +
        "5916Padaria Sao Joao6009Sao Paulo62150511INVOICE0001630428B5"
    )
    const brCode = lines[3]?.replace(/^pix: /, "") ?? ""
    // pix-utils, an independent BR Code reader, checks the CRC before anything else.
    const pix = parsePix(brCode)
    if (hasError(pix) || pix.type !== "STATIC") throw new Error(`pix-utils rejects ${brCode}`)
    expect(pix.pixKey).toBe("+5511988887777")
    expect(pix.transactionAmount).toBe(123.45)
    expect(pix.merchantName).toBe("Padaria Sao Joao")
    expect(pix.merchantCity).toBe("Sao Paulo")
    expect(pix.txid).toBe("INVOICE0001")
  }, 60_000)
})
