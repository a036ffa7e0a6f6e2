// The sandbox helpers (SPEC 4.9): moves that in live mode only the outside world makes. Test keys only.
import { InvoiceTransaction } from "@fatura/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Forbidden, InvalidRequest, InvalidState, NotFound, Unavailable } from "./ApiError.js"
import { SecretKeyAuthorization } from "./Authorization.js"
import { InvoiceReference } from "./InvoiceReference.js"

export const InvoiceReferenceRequest = Schema.Struct({ id: InvoiceReference })

const helper = <const Name extends string>(name: Name, description: string) =>
  HttpApiEndpoint.post(name, `/sandbox/invoices/${name}`, {
    payload: InvoiceReferenceRequest,
    success: InvoiceTransaction.InvoiceTransaction,
    error: [InvalidRequest, Forbidden, NotFound, InvalidState, Unavailable]
  }).annotateMerge(OpenApi.annotations({ summary: `Sandbox: ${name}`, description }))

export class SandboxApi extends HttpApiGroup.make("sandbox")
  .add(
    helper("pay", "A pending pix or bank_slip invoice becomes paid, as if the payer paid it now."),
    helper("expire", "A pending invoice becomes expired now."),
    helper("chargeback", "A paid or partially refunded card invoice becomes chargedback.")
  )
  .middleware(SecretKeyAuthorization)
  .prefix("/api/v2")
  .annotateMerge(OpenApi.annotations({ title: "Sandbox" })) {}
