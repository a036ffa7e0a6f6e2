// Rows decoded by Schema: the column types as the drivers hand them over, and the decoding of a statement's rows. A
// row that does not decode is a bug of the adapter or of a migration, not a failure a caller can act on: a defect.
import { Effect, Option, Schema, SchemaTransformation } from "effect"

/** int8 and numeric columns arrive as bigint, string or number depending on the driver. */
export const Integer = Schema.Union([Schema.Number, Schema.String, Schema.BigInt]).pipe(
  Schema.decodeTo(Schema.Int, SchemaTransformation.transform({ decode: (value) => Number(value), encode: (n) => n }))
)

/** A json or jsonb column: parsed by some drivers, text from others. */
export const Json = <S extends Schema.Top>(schema: S) =>
  Schema.Unknown.pipe(
    Schema.decodeTo(
      schema,
      SchemaTransformation.transform({
        decode: (value): S["Encoded"] => (typeof value === "string" ? JSON.parse(value) : value),
        encode: (value) => value
      })
    )
  )

/** Every row of a statement, decoded. */
export const decodeRows = <A>(schema: Schema.Decoder<A>) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>> => Effect.orDie(decode(rows))
}

/** The first row of a statement, decoded, if there is one. */
export const decodeFirst = <A>(schema: Schema.Decoder<A>) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (rows: ReadonlyArray<unknown>): Effect.Effect<Option.Option<A>> =>
    rows[0] === undefined ? Effect.succeed(Option.none()) : Effect.orDie(Effect.map(decode(rows[0]), Option.some))
}

/** The one row a statement returns (an INSERT … RETURNING), decoded. */
export const decodeOne = <A>(schema: Schema.Decoder<A>) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (rows: ReadonlyArray<unknown>): Effect.Effect<A> => Effect.orDie(decode(rows[0]))
}
