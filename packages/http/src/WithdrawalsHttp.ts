// Handlers of withdrawals (SPEC 13.3): the request, the list, one withdrawal, and the cancel.
import { Caller, FaturaApi } from "@fatura/api"
import { Withdrawals } from "@fatura/application"
import { Cents, WithdrawalObject } from "@fatura/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toResponse } from "./FailureResponses.js"
import * as RoutePolicy from "./RoutePolicy.js"

/** What each route of the group lets through (`RouteAccess`). */
export const policies: RoutePolicy.OfGroup<"withdrawals"> = {
  create: RoutePolicy.secretKey,
  list: RoutePolicy.secretKey,
  get: RoutePolicy.secretKey,
  cancel: RoutePolicy.secretKey
}

export const layer = HttpApiBuilder.group(
  FaturaApi,
  "withdrawals",
  Effect.fn(function* (handlers) {
    const withdrawals = yield* Withdrawals
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const withdrawal = yield* withdrawals.request(yield* Caller, {
            amount: Cents.make(payload.amount),
            balance: payload.balance ?? null
          })
          return WithdrawalObject.render(withdrawal)
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const page = yield* withdrawals.list(yield* Caller, {
            limit: query.limit ?? 20,
            startingAfter: query.starting_after ?? null,
            status: query.status ?? null
          })
          const last = page.withdrawals.at(-1)
          return {
            data: page.withdrawals.map(WithdrawalObject.render),
            has_more: page.hasMore,
            next_cursor: page.hasMore && last !== undefined ? last.id : null
          }
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          return WithdrawalObject.render(yield* withdrawals.find(yield* Caller, params.id))
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("cancel", ({ params }) =>
        Effect.gen(function* () {
          return WithdrawalObject.render(yield* withdrawals.cancel(yield* Caller, params.id))
        }).pipe(Effect.mapError(toResponse))
      )
  })
)
