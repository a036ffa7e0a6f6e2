// Money as the API Pix writes it: reais as a string with exactly two decimals ("37.00"), never a float. Inside the
// PSP an amount is a whole number of cents.
import { Schema } from "effect"

const pattern = /^\d{1,10}\.\d{2}$/

/** An amount on the wire, as the spec's `\d{1,10}\.\d{2}`, read whole (the spec's own pattern is not anchored). */
export const Amount = Schema.String.check(Schema.isPattern(pattern, { expected: "reais with two decimals, as 37.00" }))

export const toCents = (amount: string): number => Number(amount.replace(".", ""))

export const fromCents = (cents: number): string => {
  const text = String(cents).padStart(3, "0")
  return `${text.slice(0, -2)}.${text.slice(-2)}`
}
