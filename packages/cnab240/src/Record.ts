// One 240-character line of a CNAB 240 file, written from and read into the values of its layout's fields. Numeric
// fields are digits, right-aligned and zero-filled; alphanumeric ones are left-aligned and blank-filled, in capitals
// without accents, as the layout asks of names and addresses (a `verbatim` field, a pix key, keeps its case).
import { Result, Schema } from "effect"
import { type Field, type Layout, width } from "./Field.js"

export const lineLength = 240

/** What a writer gives for each field; a field left out is its constant, zeros or blanks. */
export type Values<L extends Layout> = { readonly [K in keyof L]?: string | number }

/** A line read: each field's text, numeric ones as their digits and alphanumeric ones without trailing blanks. */
export type Read<L extends Layout> = { readonly [K in keyof L]: string }

export class MalformedRecord extends Schema.TaggedError<MalformedRecord>()("MalformedRecord", {
  /** The field at fault, as FEBRABAN names it, or null for the line as a whole. */
  field: Schema.NullOr(Schema.String),
  reason: Schema.String
}) {
  override get message(): string {
    return this.field === null ? this.reason : `${this.field}: ${this.reason}`
  }
}

// The characters a bank takes in a name or an address; anything else is written as a blank.
const plainText = /[^A-Z0-9 .,\-/@&()*:;'+]/g

/** A text as the layout asks it: capitals, no accents, nothing a bank would refuse. */
export const plain = (text: string): string =>
  text.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase().replace(plainText, " ")

const fieldOrder = (layout: Layout): ReadonlyArray<readonly [string, Field]> =>
  Object.entries(layout).sort(([, a], [, b]) => a.from - b.from)

const numericText = (field: Field, value: string | number): string => {
  const digits = typeof value === "number" ? String(value) : value
  if (typeof value === "number" && !(Number.isSafeInteger(value) && value >= 0)) {
    throw new RangeError(`${field.name}: ${value} is no whole number of the field's unit`)
  }
  if (!/^\d*$/.test(digits)) throw new RangeError(`${field.name}: ${JSON.stringify(digits)} is not digits`)
  if (digits.length > width(field)) {
    throw new RangeError(`${field.name}: ${digits} does not fit ${width(field)} digits`)
  }
  return digits.padStart(width(field), "0")
}

const alphanumericText = (field: Field, value: string | number): string => {
  const text = field.verbatim === true ? String(value) : plain(String(value))
  if (field.verbatim === true && text.length > width(field)) {
    throw new RangeError(`${field.name}: ${JSON.stringify(text)} does not fit ${width(field)} characters`)
  }
  // A name or an address longer than its field is cut, as every bank's layout says to.
  return text.slice(0, width(field)).padEnd(width(field), " ")
}

/**
 * The line of `layout` holding `values`. Throws a RangeError for a value its field cannot hold (a number too long,
 * text in a numeric field, a value where the layout fixes another): the writers build their values from checked data,
 * so that is a bug.
 */
export const write = <L extends Layout>(layout: L, values: Values<L>): string =>
  fieldOrder(layout)
    .map(([key, field]) => {
      const given = values[key as keyof L]
      if (given !== undefined && field.constant !== undefined && String(given) !== field.constant) {
        throw new RangeError(`${field.name}: the layout fixes ${JSON.stringify(field.constant)}, not ${given}`)
      }
      const value = given ?? field.constant ?? (field.picture === "numeric" ? 0 : "")
      return field.picture === "numeric" ? numericText(field, value) : alphanumericText(field, value)
    })
    .join("")

/**
 * The fields of `line` by `layout`: refused when the line is not 240 characters, a numeric field holds anything but
 * digits (or blanks alone, read as nothing), or a field the layout fixes holds something else. Positions the layout
 * keeps blank are not checked: banks write in them.
 */
export const read = <L extends Layout>(layout: L, line: string): Result.Result<Read<L>, MalformedRecord> => {
  if (line.length !== lineLength) {
    return Result.fail(
      new MalformedRecord({ field: null, reason: `a record has ${lineLength} characters, this one ${line.length}` })
    )
  }
  const values: Record<string, string> = {}
  for (const [key, field] of fieldOrder(layout)) {
    const text = line.slice(field.from - 1, field.to)
    if (field.picture === "numeric") {
      if (!/^\d+$/.test(text) && text.trim() !== "") {
        return Result.fail(new MalformedRecord({ field: field.name, reason: `${JSON.stringify(text)} is not digits` }))
      }
      values[key] = text.trim() === "" ? "" : text
    } else {
      values[key] = text.trimEnd()
    }
    if (field.constant !== undefined && field.constant !== "" && values[key] !== field.constant) {
      return Result.fail(
        new MalformedRecord({
          field: field.name,
          reason: `${JSON.stringify(text)} where the layout fixes ${JSON.stringify(field.constant)}`
        })
      )
    }
  }
  return Result.succeed(values as Read<L>)
}
