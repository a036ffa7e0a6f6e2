// The statement (SPEC 13.2): the query of `GET /api/v2/balance/operations` and its page of ledger entries.
import { InvoiceTransaction, Ledger, PaymentMethod, Timestamp } from "@fatura/domain"
import { Schema } from "effect"
import { IntegerText } from "./IntegerText.js"
import { PageLimit } from "./InvoicePage.js"
import * as Rfc3339 from "./Rfc3339.js"

export const OperationQuery = {
  limit: Schema.optionalKey(PageLimit),
  starting_after: Schema.optionalKey(
    IntegerText({ minimum: 1, description: "The id of an operation of yours: the page starts after it." })
  ),
  created_gte: Schema.optionalKey(Rfc3339.DateTime),
  created_lte: Schema.optionalKey(Rfc3339.DateTime),
  balance: Schema.optionalKey(PaymentMethod.BalanceKind),
  type: Schema.optionalKey(Ledger.EntryType)
}

const OperationId = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))

export const BalanceOperation = Schema.Struct({
  id: OperationId,
  type: Ledger.EntryType,
  direction: Ledger.Direction,
  amount: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({ description: "Cents." }),
  balance: PaymentMethod.BalanceKind,
  bucket: Ledger.Bucket.annotate({
    description: "`available`, or `waiting` until its receivable falls due."
  }),
  invoice_id: Schema.NullOr(InvoiceTransaction.SecureId).annotate({
    description: "The secureId of the invoice it belongs to; null for a withdrawal's."
  }),
  withdrawal_id: Schema.NullOr(Schema.String).annotate({
    description: "The id of the withdrawal it belongs to; null for an invoice's."
  }),
  anticipation_id: Schema.Null.annotate({
    description: "The anticipation it belongs to; no entry belongs to one yet."
  }),
  created_at: Timestamp.Timestamp
}).annotate({ identifier: "BalanceOperation" })
export type BalanceOperation = typeof BalanceOperation.Type

export const BalanceOperationPage = Schema.Struct({
  data: Schema.Array(BalanceOperation),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(OperationId).annotate({
    description: "The id of the last operation of this page, to pass as `starting_after`; null on the last page."
  })
}).annotate({ identifier: "BalanceOperationPage" })
export type BalanceOperationPage = typeof BalanceOperationPage.Type
