// Types statement parameters the way @effect/sql-pg infers them, so PostgreSQL resolves the same SQL the same way.
import type { SerializerOptions } from "@electric-sql/pglite"
import { types } from "@electric-sql/pglite"

/** A value to bind as `jsonb`, produced by `PgliteClient.json`. */
export class JsonParameter {
  readonly value: unknown
  constructor(value: unknown) {
    this.value = value
  }
}

/** Parameters ready for `PGlite.query`: text-or-native values and the type OID declared for each, 0 meaning "infer". */
export interface Bound {
  readonly values: Array<unknown>
  readonly types: Array<number>
}

const INT32_MIN = -2147483648
const INT32_MAX = 2147483647

const arrayOf: Readonly<Record<number, number>> = {
  [types.BOOL]: 1000,
  [types.BYTEA]: 1001,
  [types.INT8]: 1016,
  [types.INT4]: 1007,
  [types.TEXT]: 1009,
  [types.FLOAT8]: 1022,
  [types.TIMESTAMPTZ]: 1185,
  [types.JSONB]: 3807
}

const toJson = (value: unknown): string => {
  const text = JSON.stringify(value)
  if (text === undefined) throw new Error(`PgliteClient: ${String(value)} cannot be serialised as JSON`)
  return text
}

interface Scalar {
  readonly oid: number
  readonly value: unknown
}

/** `undefined` when the value is not a SQL scalar, so the caller binds it as JSON instead. */
const inferScalar = (value: unknown): Scalar | undefined => {
  if (value === null || value === undefined) return { oid: 0, value: null }
  switch (typeof value) {
    case "boolean":
      return { oid: types.BOOL, value }
    case "bigint":
      return { oid: types.INT8, value }
    case "number":
      if (Number.isInteger(value)) {
        if (value >= INT32_MIN && value <= INT32_MAX) return { oid: types.INT4, value }
        if (Number.isSafeInteger(value)) return { oid: types.INT8, value }
      }
      return { oid: types.FLOAT8, value }
    case "string":
      // Untyped, like sql-pg: the statement decides, so a string works against a uuid, date or numeric column.
      return { oid: 0, value }
  }
  if (value instanceof Date) return { oid: types.TIMESTAMPTZ, value }
  if (value instanceof Uint8Array) return { oid: types.BYTEA, value }
  if (value instanceof Int8Array) {
    return { oid: types.BYTEA, value: new Uint8Array(value.buffer, value.byteOffset, value.byteLength) }
  }
  if (value instanceof JsonParameter) return { oid: types.JSONB, value: toJson(value.value) }
  return undefined
}

/** Integers that outgrow int4 widen to int8, and mixed integers and fractions to float8, where sql-pg would refuse. */
const widen = (a: number, b: number): number | undefined => {
  if (a === b) return a
  const numeric: ReadonlyArray<number> = [types.INT4, types.INT8, types.FLOAT8]
  if (!numeric.includes(a) || !numeric.includes(b)) return undefined
  return a === types.FLOAT8 || b === types.FLOAT8 ? types.FLOAT8 : types.INT8
}

const inferArray = (value: ReadonlyArray<unknown>): Scalar => {
  // An empty array literal lets PostgreSQL take the element type from the statement.
  if (value.length === 0) return { oid: 0, value: "{}" }
  let elementOid: number | undefined
  const elements: Array<unknown> = new Array(value.length)
  for (let index = 0; index < value.length; index++) {
    const element = value[index]
    const scalar = Array.isArray(element) ? undefined : inferScalar(element)
    // Arrays of objects or nested arrays only make sense as a json(b) document.
    if (scalar === undefined) return { oid: 0, value: toJson(value) }
    if (scalar.value === null) {
      elements[index] = null
      continue
    }
    const oid = scalar.oid === 0 ? types.TEXT : scalar.oid
    const widened = elementOid === undefined ? oid : widen(elementOid, oid)
    if (widened === undefined) throw new Error("PgliteClient: array parameter elements must share one type")
    elementOid = widened
    elements[index] = scalar.value
  }
  if (elementOid === undefined) {
    throw new Error("PgliteClient: cannot infer the type of an array containing only null values")
  }
  return { oid: arrayOf[elementOid] ?? 0, value: elements }
}

export const bind = (params: ReadonlyArray<unknown>): Bound => {
  const values: Array<unknown> = new Array(params.length)
  const oids: Array<number> = new Array(params.length)
  for (let index = 0; index < params.length; index++) {
    const param = params[index]
    const scalar = Array.isArray(param) ? inferArray(param) : (inferScalar(param) ?? { oid: 0, value: toJson(param) })
    values[index] = scalar.value
    oids[index] = scalar.oid
  }
  return { values, types: oids }
}

const serializeBytea = types.serializers[types.BYTEA]!

/** An untyped string bound to a bytea is a bytea literal for PostgreSQL to parse, as it is with sql-pg. */
export const serializers: SerializerOptions = {
  [types.BYTEA]: (value: unknown) => (typeof value === "string" ? value : serializeBytea(value))
}
