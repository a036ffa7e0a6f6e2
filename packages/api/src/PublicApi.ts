// The payer's side (SPEC 4.7): reached with the invoice's checkout token instead of a secret key.
import { InvoiceStatus, InvoiceTransaction, PaymentMethod, Timestamp } from "@fatura/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NotFound, Unavailable } from "./ApiError.js"

/** An invoice as its payer sees it (SPEC 5.5): no document numbers, emails, phones, ledger or fees. */
export const PublicInvoice = Schema.Struct({
  secureId: Schema.String,
  status: InvoiceStatus.InvoiceStatus,
  amount: Schema.Int,
  paymentMethod: PaymentMethod.PaymentMethod,
  installments: Schema.Int,
  createdAt: Timestamp.Timestamp,
  paidAt: Schema.NullOr(Timestamp.Timestamp),
  items: Schema.Array(InvoiceTransaction.Item),
  pix: Schema.Struct({ qrCode: Schema.String, expiresAt: Schema.optionalKey(Timestamp.Timestamp) }),
  boleto: Schema.NullOr(InvoiceTransaction.Boleto),
  enterprise: Schema.Struct({ fantasy_name: Schema.String }),
  customer: Schema.Struct({ name: Schema.String }),
  refusedReason: Schema.NullOr(Schema.String)
})
export type PublicInvoice = typeof PublicInvoice.Type

export class PublicApi extends HttpApiGroup.make("public")
  .add(
    HttpApiEndpoint.get("invoice", "/public/invoices/:secureId", {
      params: { secureId: Schema.String },
      query: { token: Schema.optionalKey(Schema.String) },
      success: PublicInvoice,
      error: [NotFound, Unavailable]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Public invoice",
        description:
          "What the payer needs to pay, for whoever holds the invoice's checkout token; a wrong or missing token answers 404. `refusedReason` and `pix.expiresAt` are additive."
      })
    ),
    HttpApiEndpoint.get("boletoPdf", "/public/invoices/:secureId/boleto.pdf", {
      params: { secureId: Schema.String },
      query: { token: Schema.optionalKey(Schema.String) },
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" })),
      error: [NotFound, Unavailable]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Boleto PDF",
        description: "The bank slip of a bank_slip invoice; a wrong or missing token answers 404."
      })
    )
  )
  .prefix("/api/v2")
  .annotateMerge(OpenApi.annotations({ title: "Invoices public" })) {}
