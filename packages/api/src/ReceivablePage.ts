// The schedule (SPEC 13.1): the query of `GET /api/v2/receivables` and its page of receivables.
import { BusinessCalendar, Receivable as DomainReceivable, InvoiceTransaction, Timestamp } from "@fatura/domain"
import { Schema } from "effect"
import { IntegerText } from "./IntegerText.js"
import { PageLimit } from "./InvoicePage.js"

export const ReceivableQuery = {
  limit: Schema.optionalKey(PageLimit),
  starting_after: Schema.optionalKey(
    IntegerText({ minimum: 1, description: "The id of a receivable of yours: the page starts after it." })
  ),
  status: Schema.optionalKey(DomainReceivable.Status),
  invoice_id: Schema.optionalKey(
    Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64)).annotate({
      description: "Only the receivables of this invoice of yours: its secureId or its numeric id."
    })
  ),
  payment_date_gte: Schema.optionalKey(BusinessCalendar.CalendarDate),
  payment_date_lte: Schema.optionalKey(BusinessCalendar.CalendarDate)
}

const ReceivableId = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))

const signedCents = (description: string) => Schema.Int.annotate({ description: `Cents. ${description}` })

export const Receivable = Schema.Struct({
  id: ReceivableId,
  invoice_id: InvoiceTransaction.SecureId.annotate({ description: "The secureId of the invoice it belongs to." }),
  installment: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 })).annotate({
    description: "The card installment it pays (1 for pix and bank_slip), or takes back from."
  }),
  amount: signedCents("Negative for what a refund or a chargeback takes back."),
  fee: signedCents("Fatura's fee out of `amount`."),
  net_amount: signedCents("`amount` less `fee`: what it adds to the balance."),
  status: DomainReceivable.Status.annotate({
    description: "`waiting_funds` until `payment_date`, then `available`; `anticipated` when paid early."
  }),
  payment_date: BusinessCalendar.CalendarDate.annotate({
    description: "The day (São Paulo) its money is, or became, available."
  }),
  original_payment_date: BusinessCalendar.CalendarDate.annotate({
    description: "The day it was scheduled for when it was created."
  }),
  anticipation_fee: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
    description: "Cents paid to have it early; 0 unless anticipated."
  }),
  created_at: Timestamp.Timestamp,
  updated_at: Timestamp.Timestamp
}).annotate({ identifier: "Receivable" })
export type Receivable = typeof Receivable.Type

export const ReceivablePage = Schema.Struct({
  data: Schema.Array(Receivable),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(ReceivableId).annotate({
    description: "The id of the last receivable of this page, to pass as `starting_after`; null on the last page."
  })
}).annotate({ identifier: "ReceivablePage" })
export type ReceivablePage = typeof ReceivablePage.Type
