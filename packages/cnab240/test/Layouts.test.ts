// The field tables: every record's fields cover its 240 positions once each, in order, and a fixed content fits its
// field.
import { describe, expect, it } from "@effect/vitest"
import { CobrancaRecords, Field, FileRecords, PagamentosRecords } from "../src/index.js"

const layouts: ReadonlyArray<readonly [string, Field.Layout]> = [
  ["file header", FileRecords.fileHeader],
  ["file trailer", FileRecords.fileTrailer],
  ["cobrança batch header", CobrancaRecords.batchHeader],
  ["segment P", CobrancaRecords.segmentP],
  ["segment Q", CobrancaRecords.segmentQ],
  ["segment R", CobrancaRecords.segmentR],
  ["segment T", CobrancaRecords.segmentT],
  ["segment U", CobrancaRecords.segmentU],
  ["cobrança batch trailer", CobrancaRecords.batchTrailer],
  ["payments batch header", PagamentosRecords.batchHeader],
  ["segment A", PagamentosRecords.segmentA],
  ["segment B", PagamentosRecords.segmentB],
  ["segment B of a pix", PagamentosRecords.segmentBPix],
  ["payments batch trailer", PagamentosRecords.batchTrailer]
]

describe("the layouts", () => {
  it.each(layouts)("%s covers positions 1 to 240, each once, in the order it lists them", (_, layout) => {
    const fields = Object.values(layout)
    let next = 1
    for (const field of fields) {
      expect(field.from, field.name).toBe(next)
      expect(field.to, field.name).toBeGreaterThanOrEqual(field.from)
      next = field.to + 1
    }
    expect(next).toBe(241)
  })

  it.each(layouts)("%s names every field, and fixes only contents that fit", (_, layout) => {
    for (const field of Object.values(layout)) {
      expect(field.name.trim()).not.toBe("")
      if (field.constant !== undefined) {
        expect(field.constant.length, field.name).toBeLessThanOrEqual(Field.width(field))
        if (field.picture === "numeric") expect(field.constant, field.name).toMatch(/^\d+$/)
      }
    }
  })

  it("fixes each record's type and each detail's segment", () => {
    expect(FileRecords.fileHeader.recordType.constant).toBe("0")
    expect(CobrancaRecords.batchHeader.recordType.constant).toBe("1")
    expect(CobrancaRecords.segmentP.recordType.constant).toBe("3")
    expect(CobrancaRecords.batchTrailer.recordType.constant).toBe("5")
    expect(FileRecords.fileTrailer.recordType.constant).toBe("9")
    expect(
      [
        CobrancaRecords.segmentP,
        CobrancaRecords.segmentQ,
        CobrancaRecords.segmentR,
        CobrancaRecords.segmentT,
        CobrancaRecords.segmentU,
        PagamentosRecords.segmentA,
        PagamentosRecords.segmentB,
        PagamentosRecords.segmentBPix
      ].map((layout) => layout.segment.constant)
    ).toEqual(["P", "Q", "R", "T", "U", "A", "B", "B"])
  })
})
