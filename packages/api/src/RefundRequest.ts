// The body of Create Refunded (SPEC 4.4).
import { Schema } from "effect"
import { InvoiceReference } from "./InvoiceReference.js"

export const RefundRequest = Schema.Struct({
  id: InvoiceReference,
  amount: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  reason: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(255)))
})
export type RefundRequest = typeof RefundRequest.Type
