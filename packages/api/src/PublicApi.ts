// The payer's side (SPEC 4.7): reached with the invoice's checkout token instead of a secret key.
import { InvoiceStatus, InvoiceTransaction, PaymentMethod, Timestamp } from "@fatura/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { InvalidRequest, InvalidState, NotFound, Unavailable, Unprocessable } from "./ApiError.js"
import { PublicTokenAuthorization } from "./Authorization.js"
import { CardInput, CardNumber } from "./CreateInvoiceRequest.js"

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

export const CardTokenRequest = Schema.Struct({
  number: CardNumber,
  first_name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)),
  last_name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)),
  month: Schema.String.check(Schema.isPattern(/^(0?[1-9]|1[0-2])$/, { expected: "a month from 1 to 12" })),
  year: Schema.String.check(Schema.isPattern(/^\d{4}$/, { expected: "a year of 4 digits" })),
  security_code: Schema.String.check(Schema.isPattern(/^\d{3,4}$/, { expected: "3 or 4 digits" }))
})

export const CardToken = Schema.Struct({
  token: Schema.String,
  brand: Schema.String,
  first_digits: Schema.String,
  last_digits: Schema.String,
  expiration_month: Schema.Int,
  expiration_year: Schema.Int
})

export const PayRequest = Schema.Struct({ card: CardInput })

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
    HttpApiEndpoint.post("tokenizeCard", "/public/cards", {
      payload: CardTokenRequest,
      success: CardToken.pipe(HttpApiSchema.status(201)),
      error: [InvalidRequest, Unavailable]
    })
      .middleware(PublicTokenAuthorization)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Tokenize a card",
          description:
            "With the company's public token (`Authorization: Bearer pk_…`). The number and security code are checked and handed to the acquirer; the token pays one invoice within 15 minutes."
        })
      ),
    HttpApiEndpoint.post("pay", "/public/invoices/:secureId/pay", {
      params: { secureId: Schema.String },
      query: { token: Schema.optionalKey(Schema.String) },
      payload: PayRequest,
      success: PublicInvoice,
      error: [InvalidRequest, NotFound, InvalidState, Unprocessable, Unavailable]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Pay a pending card invoice",
        description:
          "With the checkout token, a card token (or card fields), the installments and 3-D Secure fields. A refusal answers 200 with `status` `refused` and `refusedReason`."
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
