// The result of Active 3ds (SPEC 5.4), in the seed's shape.
import { Schema } from "effect"

export const ExchangeTokenResult = Schema.Struct({
  checkout: Schema.Struct({ id: Schema.Int, title: Schema.String }),
  enterprise: Schema.Struct({ id: Schema.Int, fantasy_name: Schema.String, corporate_reason: Schema.String }),
  created_at: Schema.String,
  updated_at: Schema.String,
  is_active_3ds: Schema.Boolean,
  message: Schema.String,
  public_token: Schema.String,
  status_request: Schema.String,
  property1: Schema.String
})
export type ExchangeTokenResult = typeof ExchangeTokenResult.Type
