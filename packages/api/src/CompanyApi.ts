// Endpoints of the Company group: Company Infos (4.6) and Active 3ds (4.5).
import { InvoiceTransaction } from "@fatura/domain"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { SecretKeyAuthorization } from "./Authorization.js"
import { ExchangeTokenResult } from "./ExchangeTokenResult.js"
import * as RouteErrors from "./RouteErrors.js"

export class CompanyApi extends HttpApiGroup.make("company")
  .add(
    HttpApiEndpoint.get("info", "/company", {
      success: InvoiceTransaction.Enterprise,
      error: RouteErrors.anyRequest
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Company Infos",
        description: "The key's company, with its balances and totals as of now."
      })
    ),
    HttpApiEndpoint.post("exchangeToken", "/exchange-token", {
      success: ExchangeTokenResult,
      error: RouteErrors.anyPost
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Active 3ds",
        description: "Activates 3-D Secure for the company's card payments and returns its public token. Idempotent."
      })
    )
  )
  .middleware(SecretKeyAuthorization)
  .prefix("/api/v2")
  .annotateMerge(OpenApi.annotations({ title: "Company", description: "The company behind the secret key." })) {}
