// How a request names an invoice: its secureId, or its numeric id — as a string, or as a JSON number.
import { Schema } from "effect"

export const InvoiceReference = Schema.Union([
  Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64)),
  Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))
])
export type InvoiceReference = typeof InvoiceReference.Type
