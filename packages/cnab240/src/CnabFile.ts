// The frame of every CNAB 240 file: a file header, batches (each a batch header, its detail records and a batch
// trailer) and a file trailer, each record 240 characters, the counts in the trailers agreeing with what they close.
// Writers build the frame around their records; readers check it before they read a detail.
import { Result, Schema } from "effect"
import type { Layout } from "./Field.js"
import { directions, fileHeader, fileTrailer } from "./layout/FileRecords.js"
import * as Record from "./Record.js"
import { type BankAccount, dateField, documentTypes, joinLines, numberOf, splitLines, type Written } from "./Values.js"

export class MalformedFile extends Schema.TaggedError<MalformedFile>()("MalformedFile", {
  /** The line at fault, counted from 1; 0 for the file as a whole. */
  line: Schema.Number,
  /** The field at fault, as FEBRABAN names it, when one is. */
  field: Schema.NullOr(Schema.String),
  reason: Schema.String
}) {
  override get message(): string {
    const where = this.line === 0 ? "the file" : `line ${this.line}`
    return `${where}${this.field === null ? "" : `, ${this.field}`}: ${this.reason}`
  }
}

/** A line of a file, with its number in the file (from 1). */
export interface Line {
  readonly number: number
  readonly text: string
}

export interface Batch {
  readonly header: Line
  readonly details: ReadonlyArray<Line>
  readonly trailer: Line
}

export interface Frame {
  readonly header: Record.Read<typeof fileHeader>
  readonly batches: ReadonlyArray<Batch>
}

/** Reads a line by a layout, as a failure of the file at that line when it does not fit. */
export const readLine = <L extends Layout>(layout: L, line: Line): Result.Result<Record.Read<L>, MalformedFile> =>
  Result.mapError(
    Record.read(layout, line.text),
    (malformed) => new MalformedFile({ line: line.number, field: malformed.field, reason: malformed.reason })
  )

const recordType = (line: Line) => line.text.slice(7, 8)
const batchOf = (line: Line) => line.text.slice(3, 7)

/**
 * The frame of a file, checked: a header and a trailer of `direction`, every record of the header's bank, batches
 * numbered from 1 with their details numbered from 1, and every count in the trailers right.
 */
export const frameOf = (text: string, direction: keyof typeof directions): Result.Result<Frame, MalformedFile> =>
  Result.gen(function* () {
    const lines = splitLines(text).map((line, index) => ({ number: index + 1, text: line }))
    const first = lines[0]
    const last = lines.at(-1)
    if (first === undefined || last === undefined || lines.length < 2) {
      return yield* Result.fail(
        new MalformedFile({ line: 0, field: null, reason: "a file has a header and a trailer" })
      )
    }
    const header = yield* readLine(fileHeader, first)
    if (header.direction !== directions[direction]) {
      return yield* Result.fail(
        new MalformedFile({ line: 1, field: fileHeader.direction.name, reason: `this is no ${direction}` })
      )
    }
    const trailer = yield* readLine(fileTrailer, last)
    for (const line of lines) {
      if (line.text.slice(0, 3) !== header.bankCode) {
        return yield* Result.fail(
          new MalformedFile({
            line: line.number,
            field: fileHeader.bankCode.name,
            reason: `${JSON.stringify(line.text.slice(0, 3))} in a file of bank ${header.bankCode}`
          })
        )
      }
    }
    const batches: Array<Batch> = []
    let index = 1
    while (index < lines.length - 1) {
      const batchHeader = lines[index]!
      const expected = String(batches.length + 1).padStart(4, "0")
      if (recordType(batchHeader) !== "1" || batchOf(batchHeader) !== expected) {
        return yield* Result.fail(
          new MalformedFile({ line: batchHeader.number, field: null, reason: `batch ${expected}'s header expected` })
        )
      }
      const details: Array<Line> = []
      index++
      while (index < lines.length - 1 && recordType(lines[index]!) === "3") {
        const detail = lines[index]!
        const sequence = String(details.length + 1).padStart(5, "0")
        if (batchOf(detail) !== expected || detail.text.slice(8, 13) !== sequence) {
          return yield* Result.fail(
            new MalformedFile({
              line: detail.number,
              field: null,
              reason: `detail ${sequence} of batch ${expected} expected`
            })
          )
        }
        details.push(detail)
        index++
      }
      const batchTrailer = lines[index]
      if (batchTrailer === undefined || recordType(batchTrailer) !== "5" || batchOf(batchTrailer) !== expected) {
        return yield* Result.fail(
          new MalformedFile({
            line: batchTrailer?.number ?? 0,
            field: null,
            reason: `batch ${expected}'s trailer expected`
          })
        )
      }
      const counted = batchTrailer.text.slice(17, 23)
      if (numberOf(counted) !== details.length + 2) {
        return yield* Result.fail(
          new MalformedFile({
            line: batchTrailer.number,
            field: "Quantidade de Registros do Lote",
            reason: `${counted} where the batch has ${details.length + 2} records`
          })
        )
      }
      batches.push({ header: batchHeader, details, trailer: batchTrailer })
      index++
    }
    if (numberOf(trailer.batches) !== batches.length || numberOf(trailer.records) !== lines.length) {
      return yield* Result.fail(
        new MalformedFile({
          line: last.number,
          field: null,
          reason: `counts ${trailer.batches} batches and ${trailer.records} records, the file has ${batches.length} and ${lines.length}`
        })
      )
    }
    return { header, batches }
  })

/** The file header of a file the platform's account sends (`remessa`) or receives (`retorno`). */
export const headerLine = (
  account: BankAccount,
  direction: keyof typeof directions,
  sequence: number,
  written: Written
): string =>
  Record.write(fileHeader, {
    bankCode: account.bankCode,
    companyDocumentType: documentTypes.cnpj,
    companyDocument: account.companyDocument,
    agreement: account.agreement,
    agency: account.agency,
    agencyDigit: account.agencyDigit,
    account: account.account,
    accountDigit: account.accountDigit,
    companyName: account.companyName,
    bankName: account.bankName,
    direction: directions[direction],
    createdOn: dateField(written.date),
    createdAt: written.time.replaceAll(":", ""),
    sequence
  })

/** A whole file: its header, its batches' lines (each already framed), and the trailer that counts them. */
export const assemble = (bankCode: string, header: string, batches: ReadonlyArray<ReadonlyArray<string>>): string => {
  const records = 2 + batches.reduce((sum, batch) => sum + batch.length, 0)
  return joinLines([
    header,
    ...batches.flat(),
    Record.write(fileTrailer, { bankCode, batches: batches.length, records })
  ])
}
