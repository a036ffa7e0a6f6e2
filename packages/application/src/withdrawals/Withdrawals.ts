// Use cases of withdrawals (SPEC 13.3): a request records a pending withdrawal that draws its amount and fee from the
// available balances at once, under the company's ledger lock; the sweep (WithdrawalSweep) hands it to the rail. A
// pending one may be canceled, which gives back what it drew.
import { type Cents, Company, type PaymentMethod, Withdrawal, WithdrawalObject } from "@fatura/domain"
import { Context, Effect, Layer, Option } from "effect"
import { CompanyRepository, companyOf } from "../companies/CompanyRepository.js"
import type { Principal } from "../companies/Principal.js"
import { InvoiceRepository } from "../invoices/InvoiceRepository.js"
import * as Clock from "../platform/Clock.js"
import {
  BankAccountMissing,
  CompanyBlocked,
  CompanyNotFound,
  MoveNotAllowed,
  type PayoutUnavailable,
  type StorageUnavailable,
  UnknownCursor,
  WithdrawalNotFound
} from "../platform/Failures.js"
import { randomUuid } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import { EventOutbox } from "../postbacks/EventOutbox.js"
import { PayoutRail } from "./PayoutRail.js"
import { WithdrawalRepository } from "./WithdrawalRepository.js"

export interface WithdrawalRequest {
  readonly amount: Cents.Cents
  /** The one balance to draw from; every available one, in `Withdrawal.drawOrder`, when null. */
  readonly balance: PaymentMethod.BalanceKind | null
}

export interface WithdrawalQuery {
  readonly limit: number
  readonly startingAfter: string | null
  readonly status: Withdrawal.WithdrawalStatus | null
}

export interface WithdrawalPage {
  readonly withdrawals: ReadonlyArray<Withdrawal.Withdrawal>
  readonly hasMore: boolean
}

export class Withdrawals extends Context.Service<
  Withdrawals,
  {
    /** A withdrawal of the caller's company and mode; the automatic ones (AutoWithdrawals) ask as the company. */
    readonly request: (
      owner: Pick<Principal, "companyId" | "mode">,
      request: WithdrawalRequest
    ) => Effect.Effect<
      Withdrawal.Withdrawal,
      CompanyBlocked | BankAccountMissing | Withdrawal.InsufficientFunds | PayoutUnavailable | StorageUnavailable
    >
    readonly find: (
      principal: Principal,
      id: string
    ) => Effect.Effect<Withdrawal.Withdrawal, WithdrawalNotFound | StorageUnavailable>
    readonly list: (
      principal: Principal,
      query: WithdrawalQuery
    ) => Effect.Effect<WithdrawalPage, UnknownCursor | StorageUnavailable>
    readonly cancel: (
      principal: Principal,
      id: string
    ) => Effect.Effect<Withdrawal.Withdrawal, WithdrawalNotFound | MoveNotAllowed | StorageUnavailable>
  }
>()("@fatura/application/Withdrawals") {
  static readonly layer = Layer.effect(
    Withdrawals,
    Effect.gen(function* () {
      const withdrawals = yield* WithdrawalRepository
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const outbox = yield* EventOutbox
      const rail = yield* PayoutRail
      const transactions = yield* Transactions

      const request = Effect.fn("Withdrawals.request")(function* (
        principal: Pick<Principal, "companyId" | "mode">,
        asked: WithdrawalRequest
      ) {
        // Before anything is recorded, in the contract's order: a block, then a withdrawal no rail could pay.
        const current = yield* companyOf(companies.findById(principal.companyId), principal.companyId)
        yield* refuseBlocked(current)
        yield* rail.available(principal.mode)
        return yield* transactions.withTransaction(
          Effect.gen(function* () {
            // The lock order of every money move (InvoiceRepository.lockCompanyLedger): two withdrawals, or a
            // withdrawal and a refund, never both spend the same balance.
            const company = yield* companyOf(invoices.lockCompanyLedger(principal.companyId), principal.companyId)
            yield* refuseBlocked(company)
            if (company.bank.code === "") return yield* new BankAccountMissing()
            const now = yield* Clock.now
            const totals = yield* companies.totals(company.id, principal.mode, now)
            const fee = company.feePlan.withdrawalFee
            const sources = yield* Effect.fromResult(
              Withdrawal.draw(
                {
                  pix: Company.availableOf(totals, "pix"),
                  bank_slip: Company.availableOf(totals, "bank_slip"),
                  card: Company.availableOf(totals, "card")
                },
                asked.amount,
                fee,
                asked.balance
              )
            )
            const withdrawal: Withdrawal.Withdrawal = {
              id: `wd_${randomUuid()}`,
              companyId: company.id,
              mode: principal.mode,
              amount: asked.amount,
              fee,
              status: "pending",
              sources,
              destination: { bank: company.bank, holderName: company.corporateReason, holderDocument: company.cnpj },
              rail: null,
              endToEndId: null,
              failureReason: null,
              createdAt: now,
              updatedAt: now,
              sentAt: null,
              paidAt: null
            }
            yield* withdrawals.insert(withdrawal, Withdrawal.onRequested(sources, fee))
            yield* recordEvent(withdrawal, now)
            return withdrawal
          })
        )
      })

      /** Withdrawals are refused to a company blocked from the system or from withdrawing (SPEC 7.5). */
      const refuseBlocked = (company: Company.Company) =>
        company.blocks.system
          ? Effect.fail(new CompanyBlocked({ block: "system" }))
          : company.blocks.sake
            ? Effect.fail(new CompanyBlocked({ block: "sake" }))
            : Effect.void

      const recordEvent = (withdrawal: Withdrawal.Withdrawal, at: typeof withdrawal.updatedAt, reason?: string) =>
        outbox.recordEvent({
          id: `evt_${randomUuid()}`,
          postbackUrl: null,
          companyId: withdrawal.companyId,
          invoiceId: null,
          type: Withdrawal.eventType(withdrawal.status),
          livemode: withdrawal.mode === "live",
          data: WithdrawalObject.render(withdrawal),
          createdAt: at,
          reason
        })

      const find = Effect.fn("Withdrawals.find")(function* (principal: Principal, id: string) {
        const found = yield* withdrawals.find(principal.companyId, principal.mode, id)
        if (Option.isNone(found)) return yield* new WithdrawalNotFound({ withdrawalId: id })
        return found.value
      })

      const list = Effect.fn("Withdrawals.list")(function* (principal: Principal, query: WithdrawalQuery) {
        // A cursor of another company's or mode's withdrawal answers like one that never was.
        if (
          query.startingAfter !== null &&
          Option.isNone(yield* withdrawals.find(principal.companyId, principal.mode, query.startingAfter))
        ) {
          return yield* new UnknownCursor({ cursor: query.startingAfter })
        }
        const found = yield* withdrawals.list({
          companyId: principal.companyId,
          mode: principal.mode,
          afterId: query.startingAfter,
          status: query.status,
          limit: query.limit
        })
        return { withdrawals: found.slice(0, query.limit), hasMore: found.length > query.limit }
      })

      const cancel = Effect.fn("Withdrawals.cancel")(function* (principal: Principal, id: string) {
        return yield* transactions.withTransaction(
          Effect.gen(function* () {
            const company = yield* invoices.lockCompanyLedger(principal.companyId)
            if (Option.isNone(company))
              return yield* Effect.die(new CompanyNotFound({ companyId: principal.companyId }))
            const locked = yield* withdrawals.lock(id)
            if (
              Option.isNone(locked) ||
              locked.value.companyId !== principal.companyId ||
              locked.value.mode !== principal.mode
            ) {
              return yield* new WithdrawalNotFound({ withdrawalId: id })
            }
            const canceled = yield* Effect.fromResult(Withdrawal.move(locked.value, "cancel")).pipe(
              Effect.mapError((refused) => new MoveNotAllowed({ reason: refused.message }))
            )
            const now = yield* Clock.now
            const moved = yield* withdrawals.apply(locked.value, { ...canceled, at: now, nextCheckAt: null })
            yield* recordEvent(moved, now)
            return moved
          })
        )
      })

      return Withdrawals.of({ request, find, list, cancel })
    })
  )
}
