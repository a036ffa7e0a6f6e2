// The list of invoices (SPEC 4.3): its query and its page.
import { InvoiceStatus, InvoiceTransaction, PaymentMethod } from "@fatura/domain"
import { Schema } from "effect"
import { IntegerText } from "./IntegerText.js"
import * as Rfc3339 from "./Rfc3339.js"

/** How many a page holds: 1 to 100, 20 unless given (SPEC 4.3, 10). */
export const PageLimit = IntegerText({
  minimum: 1,
  maximum: 100,
  description: "How many to return, 1 to 100; 20 unless given."
})

export const ListQuery = {
  limit: Schema.optionalKey(PageLimit),
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
  next_cursor: Schema.NullOr(InvoiceTransaction.SecureId).annotate({
    description: "The secureId of the last invoice of this page, to pass as `starting_after`; null on the last page."
  })
}).annotate({ identifier: "InvoicePage" })
export type InvoicePage = typeof InvoicePage.Type
