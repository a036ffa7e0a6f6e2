// The payer's side (SPEC 4.7): reached with the invoice's checkout token instead of a secret key.
import { InvoiceStatus, InvoiceTransaction, PaymentMethod, Timestamp } from "@fatura/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { InvalidStateResponse, UnprocessableResponse } from "./ApiErrorResponse.js"
import { PublicTokenAuthorization } from "./Authorization.js"
import { CardInput, CardNumber } from "./CreateInvoiceRequest.js"
import * as RouteErrors from "./RouteErrors.js"

/** An invoice as its payer sees it (SPEC 5.5): no document numbers, emails, phones, ledger or fees. */
export const PublicInvoice = Schema.Struct({
  secureId: InvoiceTransaction.SecureId,
  status: InvoiceStatus.InvoiceStatus,
  amount: InvoiceTransaction.Amount,
  paymentMethod: PaymentMethod.PaymentMethod,
  installments: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 })),
  createdAt: Timestamp.Timestamp,
  paidAt: Schema.NullOr(Timestamp.Timestamp),
  items: Schema.Array(InvoiceTransaction.Item),
  pix: Schema.Struct({
    qrCode: InvoiceTransaction.Pix.fields.qrCode,
    expiresAt: Schema.optionalKey(Timestamp.Timestamp)
  }),
  boleto: Schema.NullOr(InvoiceTransaction.Boleto),
  enterprise: Schema.Struct({ fantasy_name: Schema.String }),
  customer: Schema.Struct({ name: Schema.String }),
  refusedReason: Schema.NullOr(Schema.String)
}).annotate({
  identifier: "PublicInvoice",
  description: "An invoice as its payer sees it: no document numbers, emails, phones, ledger or fees."
})
export type PublicInvoice = typeof PublicInvoice.Type

const Month = Schema.String.annotate({ examples: ["12"] }).check(
  Schema.isPattern(/^(0?[1-9]|1[0-2])$/u, { expected: "a month from 1 to 12" })
)
const Year = Schema.String.annotate({ examples: ["2030"] }).check(
  Schema.isPattern(/^\d{4}$/u, { expected: "a year of 4 digits" })
)
const SecurityCode = Schema.String.annotate({ examples: ["123"] }).check(
  Schema.isPattern(/^\d{3,4}$/u, { expected: "3 or 4 digits" })
)

export const CardTokenRequest = Schema.Struct({
  number: CardNumber,
  first_name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)),
  last_name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255)),
  month: Month,
  year: Year,
  security_code: SecurityCode
}).annotate({ identifier: "CardTokenRequest" })

export const CardToken = Schema.Struct({
  token: Schema.String.annotate({ examples: ["card_8c1f0f8e2b9d4c4f9a7e6d5c4b3a2910"] }),
  brand: Schema.String,
  first_digits: Schema.String.check(Schema.isPattern(/^\d{6}$/u)),
  last_digits: Schema.String.check(Schema.isPattern(/^\d{4}$/u)),
  expiration_month: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 })),
  expiration_year: Schema.Int.check(Schema.isBetween({ minimum: 2000, maximum: 9999 }))
}).annotate({ identifier: "CardToken" })

export const PayRequest = Schema.Struct({ card: CardInput }).annotate({ identifier: "PayRequest" })

const SecureIdParameter = Schema.String.annotate({
  description: "The invoice's secureId.",
  format: "uuid",
  examples: ["5f0c8a52-8a3e-4c4e-9d0b-1f2e3a4b5c6d"]
})

const CheckoutToken = Schema.String.annotate({
  description: "The invoice's `invoice.token_checkout`. Without it, or with a wrong one, the answer is 404."
})

export class PublicApi extends HttpApiGroup.make("public")
  .add(
    HttpApiEndpoint.get("invoice", "/public/invoices/:secureId", {
      params: { secureId: SecureIdParameter },
      query: { token: CheckoutToken },
      success: PublicInvoice,
      error: [...RouteErrors.anyRequest, ...RouteErrors.checkoutToken]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Public invoice",
        description:
          "What the payer needs to pay, for whoever holds the invoice's checkout token. `refusedReason` and " +
          "`pix.expiresAt` are additive."
      })
    ),
    HttpApiEndpoint.post("tokenizeCard", "/public/cards", {
      payload: CardTokenRequest,
      success: CardToken.pipe(HttpApiSchema.status(201)),
      error: RouteErrors.anyPost
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
      params: { secureId: SecureIdParameter },
      query: { token: CheckoutToken },
      payload: PayRequest,
      success: PublicInvoice,
      error: [...RouteErrors.anyPost, ...RouteErrors.checkoutToken, InvalidStateResponse, UnprocessableResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Pay a pending card invoice",
        description:
          "With the checkout token, a card token (or card fields), the installments and 3-D Secure fields. A refusal answers 200 with `status` `refused` and `refusedReason`."
      })
    ),
    HttpApiEndpoint.get("boletoPdf", "/public/invoices/:secureId/boleto.pdf", {
      params: { secureId: SecureIdParameter },
      query: { token: CheckoutToken },
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" })),
      error: [...RouteErrors.anyRequest, ...RouteErrors.checkoutToken]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Boleto PDF",
        description: "The bank slip of a bank_slip invoice, with its barcode and digitable line; 404 for other methods."
      })
    )
  )
  .prefix("/api/v2")
  .annotateMerge(
    OpenApi.annotations({
      title: "Invoices public",
      description: "The payer's side: an invoice's checkout token, or the company's public token for card tokens."
    })
  ) {}
