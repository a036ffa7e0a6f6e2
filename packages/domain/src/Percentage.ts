// A rate as a decimal percentage with at most two decimals: 1.99 means 1.99 % (SPEC 1).
import { Schema } from "effect"

export const Percentage = Schema.Finite.pipe(
  Schema.check(Schema.isBetween({ minimum: 0, maximum: 100 }), Schema.isMultipleOf(0.01))
)
export type Percentage = typeof Percentage.Type
