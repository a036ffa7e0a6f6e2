// The list of invoices (SPEC 4.3): its query and its page.
import { InvoiceStatus, InvoiceTransaction, PaymentMethod } from "@fatura/domain"
import { Schema } from "effect"
import * as Rfc3339 from "./Rfc3339.js"

export const ListQuery = {
  limit: Schema.optionalKey(
    Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 }))
  ),
  starting_after: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64))),
  status: Schema.optionalKey(InvoiceStatus.InvoiceStatus),
  payment_method: Schema.optionalKey(PaymentMethod.PaymentMethod),
  created_gte: Schema.optionalKey(Rfc3339.DateTime),
  created_lte: Schema.optionalKey(Rfc3339.DateTime),
  external_ref: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(255)))
}

export const InvoicePage = Schema.Struct({
  data: Schema.Array(InvoiceTransaction.InvoiceTransaction),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String)
})
export type InvoicePage = typeof InvoicePage.Type
