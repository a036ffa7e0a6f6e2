// Payments remessas, read at FEBRABAN's positions (written out here), one batch per form, and retornos read into
// what became of each payment.
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { Pagamentos } from "../src/index.js"
import { account, payment, written } from "./support/Fixtures.js"
import { paymentsRetornoOf } from "./support/Retornos.js"

const at = (line: string, from: number, to: number) => line.slice(from - 1, to)

describe("Pagamentos.remessa", () => {
  const lines = Pagamentos.remessa({
    account,
    sequence: 12,
    written,
    payments: [payment(1, "pix"), payment(2, "ted"), payment(3, "pix"), payment(4, "creditInAccount")]
  })
    .split("\r\n")
    .slice(0, -1)

  it("writes a batch for each form — credit in account, TED, pix — each payment a segment A and a B", () => {
    expect(lines.every((line) => line.length === 240)).toBe(true)
    const batchHeaders = lines.filter((line) => at(line, 8, 8) === "1")
    expect(batchHeaders.map((line) => [at(line, 4, 7), at(line, 9, 16)])).toEqual([
      ["0001", "C2001046"],
      ["0002", "C2041046"],
      ["0003", "C2045046"]
    ])
    expect(lines.length).toBe(2 + 3 * 2 + 4 * 2)
    expect(at(lines[0]!, 143, 163)).toBe("129112026101530000012")
  })

  it("pays a pix by the account's details: SPI, the payee's bank, agency and account, amount, our reference", () => {
    const pixBatch = lines.findIndex((line) => at(line, 8, 8) === "1" && at(line, 12, 13) === "45")
    const a = lines[pixBatch + 1]!
    expect(at(a, 1, 20)).toBe("3410003300001A000009")
    expect(at(a, 21, 43)).toBe("00101234 0000056789012 ")
    expect(at(a, 44, 73).trimEnd()).toBe("PADARIA SAO JOAO LTDA")
    expect(at(a, 74, 93)).toBe("WD000000000000000001")
    expect(at(a, 94, 134)).toBe(`30112026BRL${"0".repeat(15)}000000000010000`)
    expect(at(a, 225, 226)).toBe("CC")
    const b = lines[pixBatch + 2]!
    expect(at(b, 14, 32)).toBe("B05 211444777000161")
    const trailer = lines[pixBatch + 5]!
    expect(at(trailer, 18, 41)).toBe("000006000000000000040000")
  })

  it("sends a TED through the STR with its purpose, and a credit at the same bank through no clearing", () => {
    const ted = lines.find((line) => at(line, 14, 14) === "A" && at(line, 74, 93).endsWith("2"))!
    expect(at(ted, 18, 20)).toBe("018")
    expect(at(ted, 220, 226)).toBe("00010CC")
    const credit = lines.find((line) => at(line, 14, 14) === "A" && at(line, 74, 93).endsWith("4"))!
    expect(at(credit, 18, 23)).toBe("000341")
  })
})

describe("Pagamentos.retorno", () => {
  it("reads each payment's occurrences, what was paid and, for a pix, its end-to-end id", () => {
    const text = paymentsRetornoOf(
      [
        {
          reference: "WD1",
          amount: 10_000,
          occurrences: "00",
          effectiveAmount: 10_000,
          endToEndId: "E60701190202611301200ABCDEFGHIJK"
        },
        { reference: "WD3", amount: 30_000, occurrences: "PCAN" }
      ],
      [{ reference: "WD2", amount: 20_000, occurrences: "BD" }]
    )
    const read = Result.getOrThrow(Pagamentos.retorno(text))
    expect(read.sequence).toBe(43)
    expect(read.outcomes).toEqual([
      {
        reference: "WD1",
        form: "pix",
        amount: 10_000,
        occurrences: ["00"],
        effectiveDate: "2026-11-30",
        effectiveAmount: 10_000,
        endToEndId: "E60701190202611301200ABCDEFGHIJK"
      },
      {
        reference: "WD3",
        form: "pix",
        amount: 30_000,
        occurrences: ["PC", "AN"],
        effectiveDate: null,
        effectiveAmount: 0,
        endToEndId: null
      },
      {
        reference: "WD2",
        form: "ted",
        amount: 20_000,
        occurrences: ["BD"],
        effectiveDate: null,
        effectiveAmount: 0,
        endToEndId: null
      }
    ])
  })

  it("refuses a batch of a form Fatura does not pay by", () => {
    const text = paymentsRetornoOf([], []).replace("C2045", "C2030")
    expect(Pagamentos.retorno(text)).toMatchObject({ failure: { line: 2, field: "Forma de Lançamento" } })
  })
})
