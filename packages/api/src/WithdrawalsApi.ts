// Withdrawals (SPEC 13.3): the company's available money to its own bank account, which only the CLI sets.
import { PaymentMethod, Withdrawal, WithdrawalObject } from "@fatura/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  ForbiddenResponse,
  InvalidStateResponse,
  NotFoundResponse,
  UnavailableResponse,
  UnprocessableResponse
} from "./ApiErrorResponse.js"
import { SecretKeyAuthorization } from "./Authorization.js"
import { PageLimit } from "./InvoicePage.js"
import * as RouteErrors from "./RouteErrors.js"

export const WithdrawalRequest = Schema.Struct({
  amount: Schema.Int.check(Schema.isGreaterThanOrEqualTo(Withdrawal.minimumAmount)).annotate({
    description: "Cents the bank account is to receive; the fee is drawn on top of it."
  }),
  balance: Schema.optionalKey(
    PaymentMethod.BalanceKind.annotate({
      description: "The one balance to draw from; without it, pix, then bank_slip, then card, as much as needed."
    })
  )
}).annotate({ identifier: "WithdrawalRequest" })
export type WithdrawalRequest = typeof WithdrawalRequest.Type

const withdrawalId = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64))

export const WithdrawalPage = Schema.Struct({
  data: Schema.Array(WithdrawalObject.WithdrawalObject),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String).annotate({
    description: "The id of the last withdrawal of this page, to pass as `starting_after`; null on the last page."
  })
}).annotate({ identifier: "WithdrawalPage" })
export type WithdrawalPage = typeof WithdrawalPage.Type

export class WithdrawalsApi extends HttpApiGroup.make("withdrawals")
  .add(
    HttpApiEndpoint.post("create", "/withdrawals", {
      payload: WithdrawalRequest,
      success: WithdrawalObject.WithdrawalObject.pipe(HttpApiSchema.status(201)),
      error: [...RouteErrors.anyPost, ForbiddenResponse, UnprocessableResponse, UnavailableResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Withdraw",
        description:
          "Draws `amount` and the fee plan's withdrawal fee from the available balances and records a pending " +
          "withdrawal to the company's bank account, which the rail pays shortly after (`withdrawal.paid`)."
      })
    ),
    HttpApiEndpoint.get("list", "/withdrawals", {
      query: {
        limit: Schema.optionalKey(PageLimit),
        starting_after: Schema.optionalKey(withdrawalId),
        status: Schema.optionalKey(Withdrawal.WithdrawalStatus)
      },
      success: WithdrawalPage,
      error: [...RouteErrors.anyRequest, NotFoundResponse]
    }).annotateMerge(OpenApi.annotations({ summary: "List withdrawals", description: "Newest first." })),
    HttpApiEndpoint.get("get", "/withdrawals/:id", {
      params: { id: withdrawalId },
      success: WithdrawalObject.WithdrawalObject,
      error: [...RouteErrors.anyRequest, NotFoundResponse]
    }).annotateMerge(OpenApi.annotations({ summary: "Get a withdrawal" })),
    HttpApiEndpoint.post("cancel", "/withdrawals/:id/cancel", {
      params: { id: withdrawalId },
      success: WithdrawalObject.WithdrawalObject,
      error: [...RouteErrors.anyPost, NotFoundResponse, InvalidStateResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Cancel a withdrawal",
        description: "A pending withdrawal is canceled, and what it drew comes back to its balances."
      })
    )
  )
  .middleware(SecretKeyAuthorization)
  .prefix("/api/v2")
  .annotateMerge(
    OpenApi.annotations({
      title: "Withdrawals",
      description: "The company's available money, out to its bank account."
    })
  ) {}
