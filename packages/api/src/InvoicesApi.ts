// Endpoints of the Invoices group: Create Invoices (4.1), Search Transaction (4.2), the list (4.3) and Create
// Refunded (4.4).
import { InvoiceTransaction } from "@fatura/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ForbiddenResponse, InvalidStateResponse, NotFoundResponse, UnprocessableResponse } from "./ApiErrorResponse.js"
import { SecretKeyAuthorization } from "./Authorization.js"
import { CreateInvoiceRequest } from "./CreateInvoiceRequest.js"
import { InvoicePage, ListQuery } from "./InvoicePage.js"
import { RefundRequest } from "./RefundRequest.js"
import * as RouteErrors from "./RouteErrors.js"

export class InvoicesApi extends HttpApiGroup.make("invoices")
  .add(
    HttpApiEndpoint.post("create", "/invoices", {
      payload: CreateInvoiceRequest,
      success: InvoiceTransaction.InvoiceTransaction.pipe(HttpApiSchema.status(201)),
      error: [...RouteErrors.anyPost, ForbiddenResponse, UnprocessableResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Create Invoices",
        description:
          "Creates a pix, bank_slip or credit_card invoice. Pix and boleto invoices start `pending`; a card invoice " +
          "with card data is charged at once and comes back `paid` or `refused` (a refusal is not an error). With " +
          "the pix provider, a pix charge it refuses is `422 unprocessable` (its reason in `message`), one it " +
          "cannot be asked for `503 provider_unavailable`; nothing is created either way."
      })
    ),
    HttpApiEndpoint.get("list", "/invoices/list", {
      query: ListQuery,
      success: InvoicePage,
      error: [...RouteErrors.anyRequest, NotFoundResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "List invoices",
        description: "Newest first. Pass `next_cursor` as `starting_after` for the next page."
      })
    ),
    HttpApiEndpoint.post("refund", "/invoices/refund", {
      payload: RefundRequest,
      success: InvoiceTransaction.InvoiceTransaction.pipe(HttpApiSchema.status(201)),
      error: [...RouteErrors.anyPost, NotFoundResponse, InvalidStateResponse, UnprocessableResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Create Refunded",
        description:
          "Refunds all that is left, or `amount` cents of it. Never more than the invoice's amount in all. A pix paid " +
          "through the pix provider is returned through it, which answers later: its refund is `pending` (its amount " +
          "already held from the pix balance, an `invoice.refund_pending` event that says so), and the invoice's " +
          "status and `refundedAmount` change when the provider confirms (`invoice.partially_refunded` / " +
          "`invoice.refunded`); if it refuses — later, or at once when asked (then this answer shows it `failed` " +
          "already) — the refund is `failed` with the provider's reason in `failure_reason`, the amount is credited " +
          "back (`refund_reversal`), and an `invoice.refund_failed` event says why. Pending refunds count against " +
          "what is left to refund."
      })
    ),
    HttpApiEndpoint.get("search", "/invoices", {
      query: {
        id: Schema.String.annotate({
          description: "The invoice's secureId, or its numeric id.",
          examples: ["5f0c8a52-8a3e-4c4e-9d0b-1f2e3a4b5c6d", "42"]
        }).check(Schema.isMinLength(1), Schema.isMaxLength(64))
      },
      success: InvoiceTransaction.InvoiceTransaction,
      error: [...RouteErrors.anyRequest, NotFoundResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Search Transaction",
        description: "The invoice as it is now: its refunds, ledger entries and timeline included."
      })
    )
  )
  .middleware(SecretKeyAuthorization)
  .prefix("/api/v2")
  .annotateMerge(
    OpenApi.annotations({
      title: "Invoices",
      description: "A merchant's invoices, with a secret key: create, find, list and refund them."
    })
  ) {}
