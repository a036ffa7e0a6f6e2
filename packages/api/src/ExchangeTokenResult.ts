// The result of Active 3ds (SPEC 5.4), in the seed's shape.
import { Timestamp } from "@fatura/domain"
import { Schema } from "effect"

const Id = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))

export const ExchangeTokenResult = Schema.Struct({
  checkout: Schema.Struct({ id: Id, title: Schema.String }),
  enterprise: Schema.Struct({ id: Id, fantasy_name: Schema.String, corporate_reason: Schema.String }),
  created_at: Timestamp.Timestamp,
  updated_at: Timestamp.Timestamp,
  is_active_3ds: Schema.Literal(true),
  message: Schema.String,
  public_token: Schema.String.annotate({ examples: ["pk_test_4eC39HqLyjWDarjtT1zdp7dc"] }).check(
    Schema.isPattern(/^pk_(?:test|live)_[0-9A-Za-z]+$/u, { expected: "a public token" })
  ),
  status_request: Schema.Literal("success"),
  property1: Schema.Literal("").annotate({ description: "Kept from the seed's shape; always empty." })
}).annotate({ identifier: "ExchangeTokenResult" })
export type ExchangeTokenResult = typeof ExchangeTokenResult.Type
