// An integer written as text, as query parameters, path segments and headers carry one: decimal digits without a
// sign or leading zeros. The OpenAPI document states it as the integer it is (with its range), which is how
// OpenAPI describes a parameter that a client serializes to text.
import { Schema, SchemaTransformation } from "effect"

// A string that the StringTree codec of HTTP parameters takes as it is, and whose JSON Schema is only what its
// check states.
const Text = Schema.declare((input: unknown): input is string => typeof input === "string", {
  toCodecStringTree: () => undefined,
  toCodecJson: () => undefined
} as Schema.Annotations.Declaration<string>)

const digits = /^(?:0|[1-9]\d{0,15})$/

export const IntegerText = (options: {
  readonly minimum: number
  readonly maximum?: number
  /** Said in the document, where a parameter's description goes with the text the client sends. */
  readonly description?: string
}) => {
  const maximum = options.maximum ?? Number.MAX_SAFE_INTEGER
  const description = options.description === undefined ? {} : { description: options.description }
  return Text.check(
    Schema.makeFilter((text: string) => digits.test(text) || "must be an integer", {
      expected: "an integer",
      toJsonSchema: () => ({ type: "integer", minimum: options.minimum, maximum, ...description })
    })
  ).pipe(
    Schema.decodeTo(
      Schema.Int.check(Schema.isBetween({ minimum: options.minimum, maximum })),
      SchemaTransformation.numberFromString
    )
  )
}
