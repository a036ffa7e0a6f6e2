// Money as the API Pix writes it: reais as a string with exactly two decimals ("123.45"), read and written as whole
// cents without ever passing through a floating-point number.
import { Cents } from "@fatura/domain"
import { Effect, Option, Schema, SchemaIssue, SchemaTransformation } from "effect"

const amount = /^(\d{1,10})\.(\d{2})$/

/** `"123.45"` for 12345 cents. */
export const fromCents = (cents: Cents.Cents): string => Cents.toDecimalString(cents)

/** The cents an amount on the wire stands for; none for anything but 1 to 10 digits, a point and 2 digits. */
export const toCents = (text: string): Option.Option<Cents.Cents> => {
  const parts = amount.exec(text)
  if (parts === null) return Option.none()
  // At most 10 digits of reais: well within the integers a number holds exactly.
  return Option.some(Cents.make(Number(parts[1]) * 100 + Number(parts[2])))
}

/** An amount on the wire, cents once decoded. */
export const CentsFromAmount = Schema.String.pipe(
  Schema.decodeTo(
    Cents.Cents,
    // Cents then checks and brands what this reads.
    SchemaTransformation.transformEffect<number, string>({
      decode: (text, options) =>
        Option.match(toCents(text), {
          onNone: () =>
            Effect.fail(new SchemaIssue.InvalidValue({ expected: "an amount such as 123.45" }, text, options)),
          onSome: Effect.succeed
        }),
      encode: (cents) => Effect.succeed(fromCents(Cents.make(cents)))
    })
  )
)
