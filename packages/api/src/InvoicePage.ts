// The list of invoices (SPEC 4.3): its query and its page.
import { InvoiceStatus, InvoiceTransaction, PaymentMethod } from "@fatura/domain"
import { Schema } from "effect"

/** Any ISO 8601 date-time with a zone, e.g. `2026-11-01T00:00:00Z` or `2026-11-01T00:00:00.000000-03:00`. */
export const DateTimeQuery = Schema.String.check(
  Schema.makeFilter(
    (value: string) =>
      (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
        !Number.isNaN(Date.parse(value))) ||
      "must be an ISO 8601 date-time with a zone"
  )
)

export const ListQuery = {
  limit: Schema.optionalKey(
    Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 }))
  ),
  starting_after: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64))),
  status: Schema.optionalKey(InvoiceStatus.InvoiceStatus),
  payment_method: Schema.optionalKey(PaymentMethod.PaymentMethod),
  created_gte: Schema.optionalKey(DateTimeQuery),
  created_lte: Schema.optionalKey(DateTimeQuery),
  external_ref: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(255)))
}

export const InvoicePage = Schema.Struct({
  data: Schema.Array(InvoiceTransaction.InvoiceTransaction),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String)
})
export type InvoicePage = typeof InvoicePage.Type
