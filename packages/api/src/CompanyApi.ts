// Endpoints of the Company group: Company Infos (4.6), Active 3ds (4.5), the statement (13.2) and the schedule of
// receivables (13.1).
import { InvoiceTransaction } from "@fatura/domain"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { NotFoundResponse } from "./ApiErrorResponse.js"
import { SecretKeyAuthorization } from "./Authorization.js"
import { BalanceOperationPage, OperationQuery } from "./BalanceOperationPage.js"
import { ExchangeTokenResult } from "./ExchangeTokenResult.js"
import { ReceivablePage, ReceivableQuery } from "./ReceivablePage.js"
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
    HttpApiEndpoint.get("operations", "/balance/operations", {
      query: OperationQuery,
      success: BalanceOperationPage,
      error: [...RouteErrors.anyRequest, NotFoundResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "The statement",
        description:
          "Every ledger entry of the key's company and mode, newest first: what moved which balance, in which " +
          "bucket, and what it belongs to. Pass `next_cursor` as `starting_after` for the next page."
      })
    ),
    HttpApiEndpoint.get("receivables", "/receivables", {
      query: ReceivableQuery,
      success: ReceivablePage,
      error: [...RouteErrors.anyRequest, NotFoundResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Receivables",
        description:
          "The key's company's schedule: what each payment pays it and from which day, with what refunds and " +
          "chargebacks took back as negative receivables; by `payment_date`, then `id`. Pass `next_cursor` as " +
          "`starting_after` for the next page."
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
