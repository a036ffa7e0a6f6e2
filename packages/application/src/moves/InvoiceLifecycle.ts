// Use cases that move an invoice after its creation (SPEC 7.1): refunds (4.4), the sandbox helpers (4.9) and
// expiry. Each move locks the invoice's company, then the invoice, checks the transition, and writes the new status,
// its timeline entry, its ledger entries and its event in one transaction. A refund of a pix a provider received is
// the exception: it is recorded pending in that transaction, asked of the provider after it, and moves the invoice
// when the provider says it was returned (PixSettlements).
import { Cents, Company, type Invoice, type InvoiceStatus, Moves, PaymentMethod, type Refund } from "@fatura/domain"
import { Context, Effect, Layer, Option, type Result } from "effect"
import * as HybridBoleto from "../boletos/HybridBoleto.js"
import { CompanyRepository, companyOf } from "../companies/CompanyRepository.js"
import type { Principal } from "../companies/Principal.js"
import type { InvoiceView } from "../invoices/InvoiceInput.js"
import * as InvoiceRecords from "../invoices/InvoiceRecords.js"
import { parseReference } from "../invoices/InvoiceReference.js"
import { InvoiceRepository } from "../invoices/InvoiceRepository.js"
import { PixReturnRepository } from "../pix/PixReturnRepository.js"
import { PixSettlements } from "../pix/PixSettlements.js"
import * as Clock from "../platform/Clock.js"
import {
  CompanyNotFound,
  InsufficientBalance,
  InvoiceNotFound,
  MoveNotAllowed,
  SandboxOnly,
  type StorageUnavailable
} from "../platform/Failures.js"
import { CurrentIdempotentRun, checkpoint as checkpointRun, type LeaseLost } from "../platform/IdempotencyStore.js"
import { randomUuid } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import { ReceivableRepository } from "../receivables/ReceivableRepository.js"

export type MoveFailure = InvoiceNotFound | MoveNotAllowed | StorageUnavailable

/** How far a refund run under an Idempotency-Key got: its move, or the pix return it recorded. */
type RefundPoint =
  | { readonly invoice: Invoice.InvoiceId }
  | { readonly pixReturn: string; readonly invoice: Invoice.InvoiceId }

const notAllowed = (error: InvoiceStatus.InvalidTransition | Moves.NotChargeable) =>
  new MoveNotAllowed({ reason: error.message })

/** A move the domain refused, in the contract's words. */
const moved = <A, E extends InvoiceStatus.InvalidTransition | Moves.NotChargeable>(
  result: Result.Result<A, E>
): Effect.Effect<A, MoveNotAllowed> => Effect.mapError(Effect.fromResult(result), notAllowed)

export class InvoiceLifecycle extends Context.Service<
  InvoiceLifecycle,
  {
    readonly refund: (
      principal: Principal,
      reference: string,
      amount: number | null,
      reason: string | null
    ) => Effect.Effect<InvoiceView, MoveFailure | Refund.RefundExceedsRemaining | InsufficientBalance | LeaseLost>
    readonly pay: (principal: Principal, reference: string) => Effect.Effect<InvoiceView, MoveFailure | SandboxOnly>
    readonly expire: (principal: Principal, reference: string) => Effect.Effect<InvoiceView, MoveFailure | SandboxOnly>
    readonly chargeback: (
      principal: Principal,
      reference: string
    ) => Effect.Effect<InvoiceView, MoveFailure | SandboxOnly>
    /** Expires up to `limit` pending invoices that are past due; returns how many it expired. */
    readonly expireDue: (limit: number) => Effect.Effect<number, StorageUnavailable>
  }
>()("@fatura/application/InvoiceLifecycle") {
  static readonly layer = Layer.effect(
    InvoiceLifecycle,
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const returns = yield* PixReturnRepository
      const companies = yield* CompanyRepository
      const receivables = yield* ReceivableRepository
      const transactions = yield* Transactions

      const pixSettlements = yield* PixSettlements
      const records = yield* InvoiceRecords.make
      const move = records.move
      const { withdrawOtherWays } = yield* HybridBoleto.make

      /** Records where a refund under an Idempotency-Key got to, in the transaction that got it there. */
      const checkpoint = (point: RefundPoint) => checkpointRun(point)

      /** What an earlier run of this refund under the same Idempotency-Key came to: its invoice as it now is. */
      const resume = Effect.fnUntraced(function* (principal: Principal, text: string) {
        const point = JSON.parse(text) as RefundPoint
        if ("pixReturn" in point) {
          const settled = yield* pixSettlements
            .settleReturn(point.pixReturn)
            .pipe(Effect.catchTag("PixProviderUnavailable", () => Effect.succeed(Option.none<InvoiceView>())))
          if (Option.isSome(settled)) return settled.value
        }
        const view = yield* invoices.findWithCompany(
          principal.companyId,
          principal.mode,
          { _tag: "Id", id: point.invoice },
          yield* Clock.now
        )
        return Option.getOrNull(view)
      })

      /**
       * The caller's invoice and its company, both locked for the enclosing transaction, to `action` it: refused
       * while a card payment of it waits for the acquirer's answer.
       */
      const locked = Effect.fnUntraced(function* (
        principal: Principal,
        raw: string,
        action: InvoiceStatus.InvoiceAction
      ) {
        const reference = parseReference(raw)
        if (Option.isNone(reference)) return yield* new InvoiceNotFound({ reference: raw })
        // The lock order (InvoiceRepository.lockCompanyLedger): the company, then the invoice. It also serializes
        // the moves of one company: a refund must see every earlier one in the balance.
        const company = yield* companyOf(invoices.lockCompanyLedger(principal.companyId), principal.companyId)
        const invoice = yield* invoices.lock(principal.companyId, principal.mode, reference.value)
        if (Option.isNone(invoice)) return yield* new InvoiceNotFound({ reference: raw })
        yield* records.refuseWhileCharging(invoice.value, action)
        return { invoice: invoice.value, company }
      })

      const sandboxOnly = (principal: Principal) =>
        principal.mode === "test" ? Effect.void : Effect.fail(new SandboxOnly())

      const refund = Effect.fn("InvoiceLifecycle.refund")(function* (
        principal: Principal,
        reference: string,
        amount: number | null,
        reason: string | null
      ) {
        const run = yield* CurrentIdempotentRun
        if (run?.recoveryPoint != null) {
          const resumed = yield* resume(principal, run.recoveryPoint)
          if (resumed !== null) return resumed
        }
        const started = yield* transactions.withTransaction(
          Effect.gen(function* () {
            const { invoice, company } = yield* locked(principal, reference, "refund_full")
            const now = yield* Clock.now
            const taken = yield* receivables.ofInvoice(invoice.id)
            const refund = yield* Effect.fromResult(Moves.refund(invoice, taken, amount, reason, now)).pipe(
              Effect.catchTag("InvalidTransition", (error) => Effect.fail(notAllowed(error)))
            )
            // What the invoice's waiting receivables do not cover comes out of the available balance (SPEC 7.4).
            const totals = yield* companies.totals(principal.companyId, principal.mode, now)
            const available = Company.availableOf(totals, PaymentMethod.balanceKindOf(invoice.method))
            if (!Moves.covers(refund, available)) {
              return yield* new InsufficientBalance({ balance: refund.waiting + available, required: refund.amount })
            }
            if (refund._tag === "Refunded") {
              yield* checkpoint({ invoice: invoice.id })
              const view = yield* move(company, invoice, refund.transition, totals)
              return { _tag: "Refunded", view } as const
            }
            // Paid by a provider's pix: the money goes back as a return of that pix, which the provider settles
            // later. Its debit is written now, so that the balance it needs is held until the provider answers.
            const returnId = `D${randomUuid().replaceAll("-", "")}`
            const held = yield* returns.recordPendingRefund(invoice, {
              amount: refund.amount,
              reason,
              returnId,
              at: now,
              movements: refund.movements,
              receivables: refund.receivables
            })
            yield* checkpoint({ pixReturn: returnId, invoice: invoice.id })
            const view = yield* records.recordEventWith(
              company,
              held,
              Company.totalsAfter(totals, refund.movements, 0),
              refund.event,
              now,
              `the refund of ${Cents.formatBRL(refund.amount)} is a return of the pix ${refund.endToEndId}, asked of ` +
                "the pix provider, which settles it later: its amount is held from the pix balance until then"
            )
            return { _tag: "Pending", returnId, view } as const
          })
        )
        if (started._tag === "Refunded") return started.view
        // Asked outside the transaction; a provider that cannot be asked now leaves it pending for the sweep.
        const settled = yield* pixSettlements
          .settleReturn(started.returnId)
          .pipe(
            Effect.catchTag("PixProviderUnavailable", (error) =>
              Effect.as(
                Effect.logWarning("pix return not asked yet: left pending", { returnId: started.returnId, error }),
                Option.none<InvoiceView>()
              )
            )
          )
        return Option.getOrElse(settled, () => started.view)
      })

      const pay = Effect.fn("InvoiceLifecycle.pay")(function* (principal: Principal, reference: string) {
        yield* sandboxOnly(principal)
        return yield* transactions.withTransaction(
          Effect.gen(function* () {
            const { invoice, company } = yield* locked(principal, reference, "pay")
            const paid = yield* Effect.fromResult(Moves.pay(invoice, yield* Clock.now, company.feePlan)).pipe(
              Effect.catchTags({
                PaidByCardOnly: () =>
                  Effect.fail(
                    new MoveNotAllowed({
                      reason: "cannot pay a credit_card invoice in the sandbox: its payer pays it with a card"
                    })
                  ),
                InvalidTransition: (error) => Effect.fail(notAllowed(error)),
                // Only a provider's pix is weighed against the amount.
                PaymentMismatch: Effect.die
              })
            )
            yield* withdrawOtherWays(invoice, "sandbox", paid.at)
            return yield* move(company, invoice, paid)
          })
        )
      })

      const expire = Effect.fn("InvoiceLifecycle.expire")(function* (principal: Principal, reference: string) {
        yield* sandboxOnly(principal)
        return yield* transactions.withTransaction(
          Effect.gen(function* () {
            const { invoice, company } = yield* locked(principal, reference, "expire")
            const expired = yield* moved(Moves.expire(invoice, yield* Clock.now))
            yield* withdrawOtherWays(invoice, "sandbox", expired.at)
            return yield* move(company, invoice, expired)
          })
        )
      })

      const chargeback = Effect.fn("InvoiceLifecycle.chargeback")(function* (principal: Principal, reference: string) {
        yield* sandboxOnly(principal)
        return yield* transactions.withTransaction(
          Effect.gen(function* () {
            const { invoice, company } = yield* locked(principal, reference, "chargeback")
            const taken = yield* receivables.ofInvoice(invoice.id)
            return yield* move(company, invoice, yield* moved(Moves.chargeback(invoice, taken, yield* Clock.now)))
          })
        )
      })

      const expireDue = Effect.fn("InvoiceLifecycle.expireDue")(function* (limit: number) {
        return yield* transactions.withTransaction(
          Effect.gen(function* () {
            const now = yield* Clock.now
            const due = yield* invoices.findDueForExpiry(now, Clock.businessDate(now), limit)
            // The lock order (InvoiceRepository.lockCompanyLedger): the companies, in ascending id, then their
            // invoices. A move that got to an invoice first has made it other than pending by now.
            const owners = new Map<number, Company.Company>()
            for (const companyId of [...new Set(due.map((invoice) => invoice.companyId))].sort((a, b) => a - b)) {
              const company = yield* invoices.lockCompanyLedger(companyId)
              if (Option.isNone(company)) return yield* Effect.die(new CompanyNotFound({ companyId }))
              owners.set(companyId, company.value)
            }
            const pending = yield* invoices.lockPendingForExpiry(due.map((invoice) => invoice.id))
            for (const id of pending) {
              const invoice = yield* invoices.findById(id)
              if (Option.isNone(invoice)) continue
              // Locked above: the invoice is one of `due`.
              const company = owners.get(invoice.value.companyId)!
              // Locked pending above: expiring it is a move the diagram allows.
              yield* move(company, invoice.value, yield* Effect.orDie(moved(Moves.expire(invoice.value, now))))
            }
            return pending.length
          })
        )
      })

      return InvoiceLifecycle.of({ refund, pay, expire, chargeback, expireDue })
    })
  )
}
