// Cobrança remessas, read at FEBRABAN's positions (written out here, not taken from the package's tables), and
// retornos read into what became of each boleto; a file whose frame does not add up is refused, naming the line.
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { Cobranca } from "../src/index.js"
import { agreement, boleto, written } from "./support/Fixtures.js"
import { answer, retornoOf } from "./support/Retornos.js"

/** Positions `from`..`to` (1-based, inclusive) of a line, as FEBRABAN's tables give them. */
const at = (line: string, from: number, to: number) => line.slice(from - 1, to)

const remessaLines = (instructions: ReadonlyArray<Cobranca.Instruction>, sequence = 7) =>
  Cobranca.remessa({ agreement, sequence, written, instructions }).split("\r\n")

describe("Cobranca.remessa", () => {
  const lines = remessaLines([
    { _tag: "Register", boleto: boleto(1) },
    { _tag: "Register", boleto: boleto(2, { fineBasisPoints: 200, interestPerDay: 33 }) },
    { _tag: "WriteOff", boleto: boleto(3) }
  ])

  it("is lines of 240 characters, each ended by CR LF", () => {
    expect(lines.at(-1)).toBe("")
    const records = lines.slice(0, -1)
    expect(records.every((line) => line.length === 240)).toBe(true)
    // Header, batch header, P Q, P Q R, P, batch trailer, trailer.
    const kinds = records.map((line) => (at(line, 8, 8) === "3" ? `3${at(line, 14, 14)}` : at(line, 8, 8)))
    expect(kinds).toEqual(["0", "1", "3P", "3Q", "3P", "3Q", "3R", "3P", "5", "9"])
  })

  it("heads the file with the account, the remessa code, the date, the time and the file's sequence", () => {
    const header = lines[0]!
    expect(at(header, 1, 8)).toBe("34100000")
    expect(at(header, 18, 32)).toBe("211222333000181")
    expect(at(header, 33, 52).trimEnd()).toBe("1234567")
    expect(at(header, 53, 72)).toBe("00057 0000000721921 ")
    expect(at(header, 73, 102).trimEnd()).toBe("FATURA PAGAMENTOS LTDA")
    expect(at(header, 143, 166)).toBe("129112026101530000007103")
  })

  it("registers a boleto with segment P: movement 01, our number, due date, amount, the company's reference", () => {
    const p = lines[2]!
    expect(at(p, 1, 17)).toBe("3410001300001P 01")
    expect(at(p, 38, 57)).toBe("1001                ")
    expect(at(p, 58, 62)).toBe("11122")
    expect(at(p, 63, 77)).toBe("501            ")
    expect(at(p, 78, 85)).toBe("02122026")
    expect(at(p, 86, 100)).toBe("000000000012345")
    expect(at(p, 107, 117)).toBe("17N29112026")
    expect(at(p, 118, 118)).toBe("3")
    expect(at(p, 196, 220).trimEnd()).toBe("INV-1")
    expect(at(p, 221, 229)).toBe("300103009")
  })

  it("names the payer in segment Q: CPF, name and address in capitals without accents, CEP in two parts", () => {
    const q = lines[3]!
    expect(at(q, 14, 17)).toBe("Q 01")
    expect(at(q, 18, 33)).toBe("1000052998224725")
    expect(at(q, 34, 73).trimEnd()).toBe("MARIA DA CONCEICAO SOUZA")
    expect(at(q, 74, 113).trimEnd()).toBe("RUA DAS LARANJEIRAS, 120, APTO 31")
    expect(at(q, 114, 128).trimEnd()).toBe("LARANJEIRAS")
    expect(at(q, 129, 136)).toBe("22240003")
    expect(at(q, 137, 153)).toBe("RIO DE JANEIRO RJ")
  })

  it("charges interest a day in P and a fine in R, both from the day after the due date", () => {
    const p = lines[4]!
    expect(at(p, 118, 141)).toBe("103122026000000000000033")
    const r = lines[6]!
    expect(at(r, 14, 17)).toBe("R 01")
    expect(at(r, 66, 89)).toBe("203122026000000000000200")
  })

  it("asks for a write-off with movement 02, and counts and sums the registrations in the trailers", () => {
    const writeOff = lines[7]!
    expect(at(writeOff, 14, 17)).toBe("P 02")
    expect(at(writeOff, 38, 41)).toBe("1003")
    const batchTrailer = lines[8]!
    expect(at(batchTrailer, 18, 23)).toBe("000008")
    expect(at(batchTrailer, 24, 46)).toBe("00000200000000000037035")
    const trailer = lines[9]!
    expect(at(trailer, 1, 35)).toBe(`34199999${" ".repeat(9)}000001000010000000`)
  })
})

describe("Cobranca.retorno", () => {
  it("reads what became of each boleto: registered, rejected with its reasons, paid for an amount, written off", () => {
    const text = retornoOf([
      answer({ movement: "02", ourNumber: "1001", amount: 12_345 }),
      answer({ movement: "03", ourNumber: "1002", amount: 24_690, reasons: "0816" }),
      answer({ movement: "06", ourNumber: "1003", amount: 37_035, paid: 37_000, net: 36_700, fee: 300 }),
      answer({ movement: "09", ourNumber: "1004", amount: 49_380 })
    ])
    const read = Result.getOrThrow(Cobranca.retorno(text))
    expect(read.bankCode).toBe("341")
    expect(read.sequence).toBe(42)
    expect(
      read.occurrences.map((occurrence) => [occurrence.movement, occurrence.ourNumber, occurrence.reasons])
    ).toEqual([
      ["02", "1001", []],
      ["03", "1002", ["08", "16"]],
      ["06", "1003", []],
      ["09", "1004", []]
    ])
    expect(read.occurrences[2]).toMatchObject({
      amount: 37_035,
      paid: 37_000,
      credited: 36_700,
      fee: 300,
      dueDate: "2026-12-02",
      occurredOn: "2026-12-01",
      creditedOn: "2026-12-02",
      companyReference: "INV-1003"
    })
  })

  it("refuses a remessa read as a retorno, and a retorno whose frame does not add up, naming the line", () => {
    const remessa = Cobranca.remessa({ agreement, sequence: 1, written, instructions: [] })
    expect(Cobranca.retorno(remessa)).toMatchObject({ failure: { line: 1, field: "Código Remessa / Retorno" } })
    const lines = retornoOf([answer({ movement: "02", ourNumber: "1" })]).split("\r\n")
    // The batch trailer counts 4 records; take the segment U away.
    const withoutU = [...lines.slice(0, 3), ...lines.slice(4)].join("\r\n")
    expect(Cobranca.retorno(withoutU)).toMatchObject({ failure: { line: 4 } })
    const shortLine = [lines[0], lines[1]!.slice(0, 239), ...lines.slice(2)].join("\r\n")
    expect(Cobranca.retorno(shortLine)).toMatchObject({ failure: { line: 2, field: null } })
    const anotherBank = [lines[0], `237${lines[1]!.slice(3)}`, ...lines.slice(2)].join("\r\n")
    expect(Cobranca.retorno(anotherBank)).toMatchObject({ failure: { line: 2 } })
    expect(Cobranca.retorno("")).toMatchObject({ failure: { line: 0 } })
  })
})
