// The sandbox helpers (SPEC 4.9): moves that in live mode only the outside world makes. Test keys only.
import { InvoiceTransaction } from "@fatura/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ForbiddenResponse, InvalidStateResponse, NotFoundResponse } from "./ApiErrorResponse.js"
import { SecretKeyAuthorization } from "./Authorization.js"
import { InvoiceReference } from "./InvoiceReference.js"
import * as RouteErrors from "./RouteErrors.js"

export const InvoiceReferenceRequest = Schema.Struct({ id: InvoiceReference }).annotate({
  identifier: "InvoiceReferenceRequest"
})

const helper = <const Name extends string>(name: Name, summary: string, description: string) =>
  HttpApiEndpoint.post(name, `/sandbox/invoices/${name}`, {
    payload: InvoiceReferenceRequest,
    success: InvoiceTransaction.InvoiceTransaction,
    error: [...RouteErrors.anyPost, ForbiddenResponse, NotFoundResponse, InvalidStateResponse]
  }).annotateMerge(OpenApi.annotations({ summary, description }))

export class SandboxApi extends HttpApiGroup.make("sandbox")
  .add(
    helper("pay", "Sandbox: pay", "A pending pix or bank_slip invoice becomes paid, as if the payer paid it now."),
    helper("expire", "Sandbox: expire", "A pending invoice becomes expired now."),
    helper("chargeback", "Sandbox: chargeback", "A paid or partially refunded card invoice becomes chargedback."),
    HttpApiEndpoint.post("releaseReceivables", "/sandbox/receivables/release", {
      payload: InvoiceReferenceRequest,
      success: InvoiceTransaction.InvoiceTransaction,
      error: [...RouteErrors.anyPost, ForbiddenResponse, NotFoundResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Sandbox: release receivables",
        description:
          "The invoice's waiting receivables become available now, dated today, as if their days had come: their " +
          "money moves from `waiting_funds_<method>` to `balance_<method>`."
      })
    )
  )
  .middleware(SecretKeyAuthorization)
  .prefix("/api/v2")
  .annotateMerge(
    OpenApi.annotations({
      title: "Sandbox",
      description: "Moves that only the outside world makes in live mode, for test keys only (a live key gets 403)."
    })
  ) {}
