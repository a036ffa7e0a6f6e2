// Use cases of receivables (SPEC 13.1): the company's schedule, the sweep that makes due receivables available, and
// the sandbox's release of an invoice's waiting ones. A worker runs the sweep; in embedded mode, the server does.
import { BusinessCalendar, Receivable } from "@fatura/domain"
import { Context, type Duration, Effect, Layer, Option, Schedule } from "effect"
import { companyOf } from "../companies/CompanyRepository.js"
import type { Principal } from "../companies/Principal.js"
import type { InvoiceView } from "../invoices/InvoiceInput.js"
import { parseReference } from "../invoices/InvoiceReference.js"
import { InvoiceRepository } from "../invoices/InvoiceRepository.js"
import * as Clock from "../platform/Clock.js"
import { InvoiceNotFound, SandboxOnly, type StorageUnavailable, UnknownCursor } from "../platform/Failures.js"
import { Transactions } from "../platform/Transactions.js"
import {
  type OwnedReceivable,
  type OwnedSettlement,
  ReceivableRepository,
  type ScheduledReceivable
} from "./ReceivableRepository.js"

/** Receivables made available by one transaction of the sweep: small, so that it holds its rows briefly. */
const batchSize = 500

const settleOn = (receivable: OwnedReceivable, on: BusinessCalendar.CalendarDate): OwnedSettlement => ({
  ...Receivable.settle(receivable, on),
  receivable
})

export interface ReceivableQuery {
  readonly limit: number
  /** The id of a receivable of the caller's: the page starts after it. */
  readonly startingAfter: number | null
  readonly status: Receivable.Status | null
  /** An invoice's secureId or id, as the caller wrote it. */
  readonly invoice: string | null
  readonly paymentDateGte: BusinessCalendar.CalendarDate | null
  readonly paymentDateLte: BusinessCalendar.CalendarDate | null
}

export interface ReceivablePage {
  readonly receivables: ReadonlyArray<ScheduledReceivable>
  readonly hasMore: boolean
}

export class Receivables extends Context.Service<
  Receivables,
  {
    readonly list: (
      principal: Principal,
      query: ReceivableQuery
    ) => Effect.Effect<ReceivablePage, UnknownCursor | InvoiceNotFound | StorageUnavailable>
    /** Makes an invoice's waiting receivables available now (test keys only); returns the invoice as it now is. */
    readonly release: (
      principal: Principal,
      reference: string
    ) => Effect.Effect<InvoiceView, InvoiceNotFound | SandboxOnly | StorageUnavailable>
    /** Makes every receivable due today available, in batches; returns how many. Running it twice changes nothing. */
    readonly sweep: Effect.Effect<number, StorageUnavailable>
    /** Sweeps every `interval` for ever; a failed sweep is logged and tried again at the next tick. */
    readonly run: (interval: Duration.Input) => Effect.Effect<never>
  }
>()("@fatura/application/Receivables") {
  static readonly layer = Layer.effect(
    Receivables,
    Effect.gen(function* () {
      const receivables = yield* ReceivableRepository
      const invoices = yield* InvoiceRepository
      const transactions = yield* Transactions

      const list = Effect.fn("Receivables.list")(function* (principal: Principal, query: ReceivableQuery) {
        // A cursor of another company's or mode's receivable answers like one that never was.
        if (
          query.startingAfter !== null &&
          !(yield* receivables.has(principal.companyId, principal.mode, query.startingAfter))
        ) {
          return yield* new UnknownCursor({ cursor: String(query.startingAfter) })
        }
        // An invoice that is not the caller's answers like one that never was, as the events' filter does.
        const invoiceId = query.invoice === null ? null : yield* secureIdOf(principal, query.invoice)
        const found = yield* receivables.list({
          companyId: principal.companyId,
          mode: principal.mode,
          afterId: query.startingAfter,
          status: query.status,
          invoiceId,
          paymentDateGte: query.paymentDateGte,
          paymentDateLte: query.paymentDateLte,
          limit: query.limit
        })
        return { receivables: found.slice(0, query.limit), hasMore: found.length > query.limit }
      })

      /** The secureId of the caller's invoice written as `raw` (its secureId or its id). */
      const secureIdOf = Effect.fnUntraced(function* (principal: Principal, raw: string) {
        const reference = parseReference(raw)
        const invoice = Option.isNone(reference)
          ? Option.none()
          : yield* invoices.find(principal.companyId, principal.mode, reference.value)
        if (Option.isNone(invoice)) return yield* new InvoiceNotFound({ reference: raw })
        return invoice.value.secureId
      })

      const release = Effect.fn("Receivables.release")(function* (principal: Principal, raw: string) {
        if (principal.mode !== "test") return yield* new SandboxOnly()
        const reference = parseReference(raw)
        if (Option.isNone(reference)) return yield* new InvoiceNotFound({ reference: raw })
        return yield* transactions.withTransaction(
          Effect.gen(function* () {
            // The lock order of every move (InvoiceRepository.lockCompanyLedger): the company, then the invoice.
            const company = yield* companyOf(invoices.lockCompanyLedger(principal.companyId), principal.companyId)
            const invoice = yield* invoices.lock(principal.companyId, principal.mode, reference.value)
            if (Option.isNone(invoice)) return yield* new InvoiceNotFound({ reference: raw })
            const now = yield* Clock.now
            const today = BusinessCalendar.saoPauloDate(now)
            const waiting = (yield* receivables.ofInvoice(invoice.value.id)).filter(
              (receivable) => receivable.status === "waiting_funds"
            )
            yield* receivables.settle(
              waiting.map((receivable) => settleOn(receivable, today)),
              now
            )
            const view = yield* invoices.findWithCompany(
              principal.companyId,
              principal.mode,
              { _tag: "Id", id: invoice.value.id },
              now
            )
            return { ...Option.getOrThrow(view), company } satisfies InvoiceView
          })
        )
      })

      const settleBatch = transactions.withTransaction(
        Effect.gen(function* () {
          const now = yield* Clock.now
          const today = BusinessCalendar.saoPauloDate(now)
          const due = yield* receivables.lockDue(today, batchSize)
          yield* receivables.settle(
            due.map((receivable) => settleOn(receivable, today)),
            now
          )
          return due.length
        })
      )

      const sweep = Effect.gen(function* () {
        let total = 0
        while (true) {
          const settled = yield* settleBatch
          total += settled
          if (settled < batchSize) return total
        }
      }).pipe(Effect.withSpan("Receivables.sweep"))

      const run = (interval: Duration.Input) =>
        sweep.pipe(
          Effect.tap((settled) =>
            settled > 0 ? Effect.logInfo("receivables made available", { settled }) : Effect.void
          ),
          Effect.catchCause((cause) => Effect.logWarning("receivables sweep failed", cause)),
          Effect.repeat(Schedule.spaced(interval)),
          Effect.andThen(Effect.never)
        )

      return Receivables.of({ list, release, sweep, run })
    })
  )
}
