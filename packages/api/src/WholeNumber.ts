// A JSON number with no fractional part, of any size: 2^53 and 1e21 are whole numbers too. Amounts use it so that
// their range stays the application's rule, with its 422 (SPEC 4.1 `amount_out_of_range`, 4.4
// `refund_exceeds_remaining`), instead of a 400 for a mere size. A literal beyond any double (1e400) is still a 400:
// the JSON reader cannot hold it as a number at all.
import { Schema } from "effect"

// Finite, so that the document states a plain JSON number: JSON has no Infinity or NaN to send.
export const WholeNumber = Schema.Finite.check(
  Schema.makeFilter((value: number) => Number.isInteger(value), {
    expected: "an integer",
    toJsonSchema: () => ({ type: "integer" })
  })
)
