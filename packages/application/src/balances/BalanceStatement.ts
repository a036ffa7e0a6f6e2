// The statement (SPEC 13.2): every ledger entry of the caller's company and mode, newest first, with the balance and
// bucket it moved and what it belongs to, for a merchant to reconcile against its bank.
import type { Ledger, PaymentMethod, Timestamp } from "@fatura/domain"
import { Context, Effect, Layer } from "effect"
import type { Principal } from "../companies/Principal.js"
import { type StorageUnavailable, UnknownCursor } from "../platform/Failures.js"
import { type BalanceOperation, LedgerEntryRepository } from "./LedgerEntryRepository.js"

export interface OperationQuery {
  readonly limit: number
  /** The id of an entry of the caller's: the page starts after it. */
  readonly startingAfter: number | null
  readonly createdGte: Timestamp.Timestamp | null
  readonly createdLte: Timestamp.Timestamp | null
  readonly balance: PaymentMethod.BalanceKind | null
  readonly type: Ledger.EntryType | null
}

export interface OperationPage {
  readonly operations: ReadonlyArray<BalanceOperation>
  readonly hasMore: boolean
}

export class BalanceStatement extends Context.Service<
  BalanceStatement,
  {
    readonly operations: (
      principal: Principal,
      query: OperationQuery
    ) => Effect.Effect<OperationPage, UnknownCursor | StorageUnavailable>
  }
>()("@fatura/application/BalanceStatement") {
  static readonly layer = Layer.effect(
    BalanceStatement,
    Effect.gen(function* () {
      const ledger = yield* LedgerEntryRepository

      return BalanceStatement.of({
        operations: Effect.fn("BalanceStatement.operations")(function* (principal, query) {
          // A cursor of another company's or mode's entry answers like one that never was.
          if (
            query.startingAfter !== null &&
            !(yield* ledger.hasOperation(principal.companyId, principal.mode, query.startingAfter))
          ) {
            return yield* new UnknownCursor({ cursor: String(query.startingAfter) })
          }
          const found = yield* ledger.operations({
            companyId: principal.companyId,
            mode: principal.mode,
            beforeId: query.startingAfter,
            createdGte: query.createdGte,
            createdLte: query.createdLte,
            balance: query.balance,
            type: query.type,
            limit: query.limit
          })
          return { operations: found.slice(0, query.limit), hasMore: found.length > query.limit }
        })
      })
    })
  )
}
