// An Invoice transaction (SPEC 5.1) answered as JSON, written directly instead of through the endpoint's schema.
import type { InvoiceView } from "@fatura/application"
import { InvoiceTransaction } from "@fatura/domain"
import { HttpServerResponse } from "effect/http"

/**
 * `InvoiceTransaction.render` builds the schema's encoded form itself (the schema has no transformations), so encoding
 * it once more only walked every field again: about a tenth of a Search Transaction's CPU. The lifecycle model test
 * holds these responses to the schema, with no field missing and none extra.
 */
export const invoiceResponse = (view: InvoiceView, status: 200 | 201) =>
  HttpServerResponse.jsonUnsafe(InvoiceTransaction.render(view.invoice, view.company, view.totals), { status })
