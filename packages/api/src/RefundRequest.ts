// The body of Create Refunded (SPEC 4.4).
import { Schema } from "effect"
import { InvoiceReference } from "./InvoiceReference.js"
import { WholeNumber } from "./WholeNumber.js"

export const RefundRequest = Schema.Struct({
  id: InvoiceReference,
  amount: Schema.optionalKey(
    WholeNumber.check(Schema.isGreaterThanOrEqualTo(1)).annotate({
      description: "Cents; what is left to refund unless given. Over what is left: 422 `refund_exceeds_remaining`."
    })
  ),
  reason: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(255)))
}).annotate({ identifier: "RefundRequest" })
export type RefundRequest = typeof RefundRequest.Type
