// Handlers of the Company group: Company Infos and Active 3ds.
import { Caller, FaturaApi } from "@fatura/api"
import { Companies } from "@fatura/application"
import { InvoiceTransaction } from "@fatura/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toResponse } from "./FailureResponses.js"
import * as RoutePolicy from "./RoutePolicy.js"

/** What each route of the group lets through (`RouteAccess`). */
export const policies: RoutePolicy.OfGroup<"company"> = {
  info: RoutePolicy.secretKey,
  exchangeToken: RoutePolicy.secretKey
}

export const layer = HttpApiBuilder.group(
  FaturaApi,
  "company",
  Effect.fn(function* (handlers) {
    const companies = yield* Companies
    return handlers
      .handle("info", () =>
        Effect.gen(function* () {
          const info = yield* companies.info(yield* Caller)
          return InvoiceTransaction.renderEnterprise(info.company, info.totals)
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("exchangeToken", () =>
        Effect.gen(function* () {
          const exchange = yield* companies.activate3ds(yield* Caller)
          const company = exchange.company
          return {
            checkout: { id: company.id, title: company.fantasyName },
            enterprise: {
              id: company.id,
              fantasy_name: company.fantasyName,
              corporate_reason: company.corporateReason
            },
            created_at: exchange.activatedAt,
            updated_at: exchange.updatedAt,
            is_active_3ds: true as const,
            message: "3-D Secure is active: card payments must now carry a 3-D Secure result.",
            public_token: exchange.publicToken,
            status_request: "success" as const,
            property1: "" as const
          }
        }).pipe(Effect.mapError(toResponse))
      )
  })
)
