// Endpoints of the Invoices group: Create Invoices (4.1) and Search Transaction (4.2).
import { InvoiceTransaction } from "@fatura/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Forbidden, InvalidRequest, InvalidState, NotFound, Unavailable, Unprocessable } from "./ApiError.js"
import { SecretKeyAuthorization } from "./Authorization.js"
import { CreateInvoiceRequest } from "./CreateInvoiceRequest.js"
import { InvoicePage, ListQuery } from "./InvoicePage.js"
import { RefundRequest } from "./RefundRequest.js"

export class InvoicesApi extends HttpApiGroup.make("invoices")
  .add(
    HttpApiEndpoint.post("create", "/invoices", {
      payload: CreateInvoiceRequest,
      success: InvoiceTransaction.InvoiceTransaction.pipe(HttpApiSchema.status(201)),
      error: [InvalidRequest, Forbidden, Unprocessable, Unavailable]
    }).annotateMerge(OpenApi.annotations({ summary: "Create Invoices" })),
    HttpApiEndpoint.get("list", "/invoices/list", {
      query: ListQuery,
      success: InvoicePage,
      error: [InvalidRequest, NotFound, Unavailable]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "List invoices",
        description: "Newest first. Pass `next_cursor` as `starting_after` for the next page."
      })
    ),
    HttpApiEndpoint.post("refund", "/invoices/refund", {
      payload: RefundRequest,
      success: InvoiceTransaction.InvoiceTransaction.pipe(HttpApiSchema.status(201)),
      error: [InvalidRequest, NotFound, InvalidState, Unprocessable, Unavailable]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Create Refunded",
        description: "Refunds all that is left, or `amount` cents of it. Never more than the invoice's amount in all."
      })
    ),
    HttpApiEndpoint.get("search", "/invoices", {
      query: { id: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64)) },
      success: InvoiceTransaction.InvoiceTransaction,
      error: [InvalidRequest, NotFound, Unavailable]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Search Transaction",
        description: "`id` is the invoice's secureId or its numeric id."
      })
    )
  )
  .middleware(SecretKeyAuthorization)
  .prefix("/api/v2")
  .annotateMerge(OpenApi.annotations({ title: "Invoices" })) {}
