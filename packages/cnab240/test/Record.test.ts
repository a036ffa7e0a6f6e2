// One line of a file: numeric fields right-aligned with zeros, text left-aligned with blanks in capitals without
// accents, verbatim text as given; read back field by field, and refused when it is not a line of the layout.
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { Field, Record } from "../src/index.js"

const layout = {
  code: Field.numeric("Código", 1, 3, { constant: "341" }),
  amount: Field.numeric("Valor", 4, 18, { decimals: 2 }),
  name: Field.alphanumeric("Nome", 19, 48),
  key: Field.alphanumeric("Chave", 49, 60, { verbatim: true }),
  blank: Field.reserved(61, 240)
} satisfies Field.Layout

describe("Record", () => {
  it("writes numbers with zeros on the left and text with blanks on the right, 240 characters in all", () => {
    const line = Record.write(layout, { amount: 12_345, name: "Padaria São João", key: "ab@Cd.io" })
    expect(line).toHaveLength(240)
    expect(line.slice(0, 3)).toBe("341")
    expect(line.slice(3, 18)).toBe("000000000012345")
    expect(line.slice(18, 48)).toBe("PADARIA SAO JOAO              ")
    expect(line.slice(48, 60)).toBe("ab@Cd.io    ")
    expect(line.slice(60)).toBe(" ".repeat(180))
  })

  it("writes names in capitals without accents, what a bank refuses as blanks, and cuts what is too long", () => {
    expect(Record.plain("Açaí & Cia. — Loja nº 2")).toBe("ACAI & CIA.   LOJA N  2")
    const line = Record.write(layout, { name: "Distribuidora de Alimentos Maria Conceição Ltda" })
    expect(line.slice(18, 48)).toBe("DISTRIBUIDORA DE ALIMENTOS MAR")
  })

  it("refuses what a field cannot hold: a number too long, text as a number, another constant, a long key", () => {
    expect(() => Record.write(layout, { amount: 10 ** 15 })).toThrow(RangeError)
    expect(() => Record.write(layout, { amount: -1 })).toThrow(RangeError)
    expect(() => Record.write(layout, { amount: 1.5 })).toThrow(RangeError)
    expect(() => Record.write(layout, { amount: "12a" })).toThrow(RangeError)
    expect(() => Record.write(layout, { code: "237" })).toThrow(RangeError)
    expect(() => Record.write(layout, { key: "k".repeat(13) })).toThrow(RangeError)
  })

  it("reads each field back: digits as written, text without its trailing blanks", () => {
    const line = Record.write(layout, { amount: 990, name: "Ana", key: "x-1" })
    expect(Record.read(layout, line)).toEqual(
      Result.succeed({ code: "341", amount: "000000000000990", name: "ANA", key: "x-1", blank: "" })
    )
  })

  it("refuses a line of another length, letters in a numeric field, and another content where one is fixed", () => {
    const line = Record.write(layout, { amount: 1 })
    expect(Record.read(layout, line.slice(1))).toMatchObject({ failure: { field: null } })
    expect(Record.read(layout, `${line.slice(0, 5)}x${line.slice(6)}`)).toMatchObject({
      failure: { field: "Valor", reason: '"00x000000000001" is not digits' }
    })
    expect(Record.read(layout, `237${line.slice(3)}`)).toMatchObject({ failure: { field: "Código" } })
    // A numeric field left blank reads as nothing, as some banks leave the fields they do not use.
    expect(Record.read(layout, `${line.slice(0, 3)}${" ".repeat(15)}${line.slice(18)}`)).toMatchObject({
      success: { amount: "" }
    })
  })

  it("reads back whatever it writes", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999_999_999_999_999 }),
        fc.string({ maxLength: 30 }),
        fc.stringMatching(/^[a-z0-9@.+-]{0,12}$/),
        (amount, name, key) => {
          const read = Result.getOrThrow(Record.read(layout, Record.write(layout, { amount, name, key })))
          expect(Number(read.amount)).toBe(amount)
          expect(read.name).toBe(Record.plain(name).trimEnd())
          expect(read.key).toBe(key.trimEnd())
        }
      ),
      { numRuns: propertyRuns(500) }
    )
  })
})
