// Handlers of the Company group: Company Infos, Active 3ds, the statement and the schedule of receivables.
import { type BalanceOperation, Caller, FaturaApi, type Receivable } from "@fatura/api"
import {
  BalanceStatement,
  Companies,
  type BalanceOperation as Operation,
  Receivables,
  type ScheduledReceivable
} from "@fatura/application"
import { InvoiceTransaction, Timestamp } from "@fatura/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toResponse } from "./FailureResponses.js"
import * as RoutePolicy from "./RoutePolicy.js"

/** What each route of the group lets through (`RouteAccess`). */
export const policies: RoutePolicy.OfGroup<"company"> = {
  info: RoutePolicy.secretKey,
  operations: RoutePolicy.secretKey,
  receivables: RoutePolicy.secretKey,
  exchangeToken: RoutePolicy.secretKey
}

const toWireOperation = (operation: Operation): BalanceOperation => ({
  id: operation.id,
  type: operation.type,
  direction: operation.direction,
  amount: operation.amount,
  balance: operation.balance,
  bucket: operation.bucket,
  invoice_id: operation.invoiceId,
  withdrawal_id: operation.withdrawalId,
  anticipation_id: null,
  created_at: operation.createdAt
})

const toWireReceivable = (receivable: ScheduledReceivable): Receivable => ({
  id: receivable.id,
  invoice_id: receivable.invoiceId,
  installment: receivable.installment,
  amount: receivable.amount,
  fee: receivable.fee,
  net_amount: receivable.netAmount,
  status: receivable.status,
  payment_date: receivable.paymentDate,
  original_payment_date: receivable.originalPaymentDate,
  anticipation_fee: receivable.anticipationFee,
  created_at: receivable.createdAt,
  updated_at: receivable.updatedAt
})

export const layer = HttpApiBuilder.group(
  FaturaApi,
  "company",
  Effect.fn(function* (handlers) {
    const companies = yield* Companies
    const statement = yield* BalanceStatement
    const receivables = yield* Receivables
    return handlers
      .handle("info", () =>
        Effect.gen(function* () {
          const info = yield* companies.info(yield* Caller)
          return InvoiceTransaction.renderEnterprise(info.company, info.totals)
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("operations", ({ query }) =>
        Effect.gen(function* () {
          const page = yield* statement.operations(yield* Caller, {
            limit: query.limit ?? 20,
            startingAfter: query.starting_after ?? null,
            createdGte: query.created_gte === undefined ? null : Timestamp.fromDateTime(query.created_gte),
            createdLte: query.created_lte === undefined ? null : Timestamp.fromDateTime(query.created_lte),
            balance: query.balance ?? null,
            type: query.type ?? null
          })
          const last = page.operations.at(-1)
          return {
            data: page.operations.map(toWireOperation),
            has_more: page.hasMore,
            next_cursor: page.hasMore && last !== undefined ? last.id : null
          }
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("receivables", ({ query }) =>
        Effect.gen(function* () {
          const page = yield* receivables.list(yield* Caller, {
            limit: query.limit ?? 20,
            startingAfter: query.starting_after ?? null,
            status: query.status ?? null,
            invoice: query.invoice_id ?? null,
            paymentDateGte: query.payment_date_gte ?? null,
            paymentDateLte: query.payment_date_lte ?? null
          })
          const last = page.receivables.at(-1)
          return {
            data: page.receivables.map(toWireReceivable),
            has_more: page.hasMore,
            next_cursor: page.hasMore && last !== undefined ? last.id : null
          }
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
