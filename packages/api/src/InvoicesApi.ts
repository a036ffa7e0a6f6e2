// Endpoints of the Invoices group: Create Invoices (4.1) and Search Transaction (4.2).
import { InvoiceTransaction } from "@fatura/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Forbidden, InvalidRequest, NotFound, Unavailable, Unprocessable } from "./ApiError.js"
import { SecretKeyAuthorization } from "./Authorization.js"
import { CreateInvoiceRequest } from "./CreateInvoiceRequest.js"

export class InvoicesApi extends HttpApiGroup.make("invoices")
  .add(
    HttpApiEndpoint.post("create", "/invoices", {
      payload: CreateInvoiceRequest,
      success: InvoiceTransaction.InvoiceTransaction.pipe(HttpApiSchema.status(201)),
      error: [InvalidRequest, Forbidden, Unprocessable, Unavailable]
    }).annotateMerge(OpenApi.annotations({ summary: "Create Invoices" })),
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
