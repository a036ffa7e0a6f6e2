// The PixReturnRepository port in memory: refunds asked of the pix provider (kept with their invoice, as in SQL),
// received pix that paid nothing with their returns, and how far the provider's received pix were reconciled.
import { Effect, Layer, Option } from "effect"
import { type PendingRefund, PixReturnRepository } from "../pix/PixReturnRepository.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import * as InMemoryInvoiceRows from "./InMemoryInvoiceRows.js"
import { type InvoiceRow, put, type Tables } from "./InMemoryTables.js"

/** Every refund asked of a provider, with its invoice's owner and pix. */
const pendingRefunds = (tables: Tables): Array<PendingRefund> =>
  [...tables.invoices.values()].flatMap((row) =>
    row.refunds.flatMap((refund) =>
      refund.returnId === null || row.pix?.endToEndId == null
        ? []
        : [
            {
              id: refund.id,
              invoiceId: row.id,
              companyId: row.companyId,
              mode: row.mode,
              amount: refund.amount,
              returnId: refund.returnId,
              endToEndId: row.pix.endToEndId,
              status: refund.status,
              createdAt: refund.createdAt
            }
          ]
    )
  )

export const layer = Layer.effect(
  PixReturnRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase
    const { findById, ledgerEntries, receivableRows, update } = InMemoryInvoiceRows.make(database)

    return PixReturnRepository.of({
      recordPendingRefund: (invoice, request) =>
        Effect.gen(function* () {
          if (!(request.amount > 0)) return yield* violated("refunds_amount_check", `a refund of ${request.amount}`)
          const id = yield* database.nextval("refunds")
          return yield* update(invoice, (row) =>
            Effect.map(
              Effect.all([
                ledgerEntries(request.movements, request.at),
                receivableRows(request.receivables, request.at)
              ]),
              ([movements, receivables]) => ({
                ...row,
                updatedAt: request.at,
                movements: [...row.movements, ...movements],
                receivables: [...row.receivables, ...receivables],
                refunds: [
                  ...row.refunds,
                  {
                    id,
                    amount: request.amount,
                    reason: request.reason,
                    status: "pending" as const,
                    failureReason: null,
                    createdAt: request.at,
                    returnId: request.returnId
                  }
                ]
              })
            )
          )
        }),

      findPendingRefund: (returnId) =>
        database.read((tables) =>
          Option.fromNullishOr(pendingRefunds(tables).find((refund) => refund.returnId === returnId))
        ),

      closePendingRefund: (invoice, refundId, outcome, at) =>
        Effect.gen(function* () {
          const current = yield* findById(invoice.id)
          const refund = Option.getOrThrow(current).refunds.find((entry) => entry.id === refundId)
          if (refund?.status !== "pending") return Option.none()
          const closed = yield* update(invoice, (row) =>
            Effect.map(
              Effect.all([
                ledgerEntries(outcome.status === "failed" ? outcome.movements : [], at),
                receivableRows(outcome.status === "failed" ? outcome.receivables : [], at)
              ]),
              ([movements, receivables]): InvoiceRow => ({
                ...row,
                updatedAt: outcome.status === "failed" ? at : row.updatedAt,
                movements: [...row.movements, ...movements],
                receivables: [...row.receivables, ...receivables],
                refunds: row.refunds.map((entry) =>
                  entry.id === refundId
                    ? {
                        ...entry,
                        status: outcome.status,
                        failureReason: outcome.status === "failed" ? outcome.reason : null
                      }
                    : entry
                )
              })
            )
          )
          return Option.some(closed)
        }),

      stalePendingRefunds: (createdBefore, limit) =>
        database.read((tables) =>
          pendingRefunds(tables)
            .filter((refund) => refund.status === "pending" && refund.createdAt < createdBefore)
            .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id))
            .slice(0, limit)
        ),

      recordPixRejection: (rejection) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`pix_rejections ${rejection.endToEndId}`)
            if (yield* database.read((tables) => tables.pixRejections.has(rejection.endToEndId))) return false
            yield* database.write(
              put("pixRejections", rejection.endToEndId, {
                endToEndId: rejection.endToEndId,
                invoiceId: rejection.invoiceId,
                amount: rejection.amount,
                returnId: rejection.returnId,
                returnState: "pending",
                createdAt: rejection.at
              })
            )
            return true
          })
        ),

      closePixRejection: (returnId, state) =>
        database.statement(
          Effect.gen(function* () {
            const found = yield* database.read((tables) =>
              [...tables.pixRejections.values()].find((rejection) => rejection.returnId === returnId)
            )
            if (found === undefined || found.returnState !== "pending") return
            yield* database.write(put("pixRejections", found.endToEndId, { ...found, returnState: state }))
          })
        ),

      findPendingReturns: (returnIds) =>
        database.read((tables) => {
          const wanted = new Set(returnIds)
          return {
            refunds: pendingRefunds(tables).filter(
              (refund) => refund.status === "pending" && wanted.has(refund.returnId)
            ),
            rejections: [...tables.pixRejections.values()].filter(
              (rejection) => rejection.returnState === "pending" && wanted.has(rejection.returnId)
            )
          }
        }),

      stalePixRejections: (createdBefore, limit) =>
        database.read((tables) =>
          [...tables.pixRejections.values()]
            .filter((rejection) => rejection.returnState === "pending" && rejection.createdAt < createdBefore)
            .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
            .slice(0, limit)
        ),

      pixListedUntil: database.read((tables) => Option.fromNullishOr(tables.pixReconciliations.get("pix"))),

      setPixListedUntil: (until) =>
        database.statement(
          Effect.gen(function* () {
            const listed = yield* database.read((tables) => tables.pixReconciliations.get("pix"))
            if (listed === undefined || listed < until) yield* database.write(put("pixReconciliations", "pix", until))
          })
        )
    })
  })
)
