// Endpoints of the Company group: Company Infos (4.6) and Active 3ds (4.5).
import { InvoiceTransaction } from "@fatura/domain"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Unavailable } from "./ApiError.js"
import { SecretKeyAuthorization } from "./Authorization.js"
import { ExchangeTokenResult } from "./ExchangeTokenResult.js"

export class CompanyApi extends HttpApiGroup.make("company")
  .add(
    HttpApiEndpoint.get("info", "/company", {
      success: InvoiceTransaction.Enterprise,
      error: Unavailable
    }).annotateMerge(OpenApi.annotations({ summary: "Company Infos" })),
    HttpApiEndpoint.post("exchangeToken", "/exchange-token", {
      success: ExchangeTokenResult,
      error: Unavailable
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Active 3ds",
        description: "Activates 3-D Secure for the company's card payments and returns its public token. Idempotent."
      })
    )
  )
  .middleware(SecretKeyAuthorization)
  .prefix("/api/v2")
  .annotateMerge(OpenApi.annotations({ title: "Company" })) {}
