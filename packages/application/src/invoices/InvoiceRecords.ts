// The writes that make an invoice's history, shared by the use cases that create, settle and move invoices: an
// invoice is inserted with its created event (and the event of the status it settled in at once), a card charge's
// outcome is written with its ledger entries and event, a move with its event. Each runs inside its caller's
// transaction. A pending card invoice whose charge waits for the acquirer is moved by that charge's answer alone.
import { Company, type Invoice, InvoiceStatus, InvoiceTransaction, type Moves, type Timestamp } from "@fatura/domain"
import { Effect, Option } from "effect"
import { CardChargeRepository, type CardChargeTerms } from "../cards/CardChargeRepository.js"
import { CompanyRepository } from "../companies/CompanyRepository.js"
import { MoveNotAllowed } from "../platform/Failures.js"
import { randomUuid } from "../platform/Secrets.js"
import { EventOutbox } from "../postbacks/EventOutbox.js"
import type { InvoiceView } from "./InvoiceInput.js"
import { InvoiceRepository, type NewInvoice, type Scheduled, type Transition } from "./InvoiceRepository.js"

export const make = Effect.gen(function* () {
  const invoices = yield* InvoiceRepository
  const companies = yield* CompanyRepository
  const outbox = yield* EventOutbox
  const charges = yield* CardChargeRepository

  /**
   * Inserts a new invoice with its created event, and the event of the status it was settled in at once (a card
   * paid or refused); the created event shows it as it was created, with the totals before it.
   */
  const insertCreated = Effect.fnUntraced(function* (
    company: Company.Company,
    draft: NewInvoice,
    client: Invoice.Client,
    cardAssociate: Invoice.CardAssociate | null,
    scheduled: Scheduled,
    totalsBefore: Company.CompanyTotals
  ) {
    const created = { status: "pending", event: InvoiceStatus.eventType("pending") } as const
    const timeline =
      draft.status === "pending"
        ? [created]
        : [created, { status: draft.status, event: InvoiceStatus.eventType(draft.status) }]
    const invoice = yield* invoices.insert(draft, client, cardAssociate, timeline, scheduled)
    const totals = Company.totalsAfter(totalsBefore, scheduled.movements, draft.paidAt === null ? 0 : draft.amount)
    const record = (type: string, snapshot: Invoice.Invoice, snapshotTotals: Company.CompanyTotals) =>
      outbox.recordEvent({
        id: `evt_${randomUuid()}`,
        postbackUrl: invoice.postbackUrl,
        companyId: company.id,
        invoiceId: invoice.id,
        type,
        livemode: draft.mode === "live",
        data: InvoiceTransaction.render(snapshot, company, snapshotTotals),
        createdAt: draft.updatedAt
      })
    if (invoice.status === "pending") {
      yield* record(InvoiceStatus.eventType("pending"), invoice, totalsBefore)
    } else {
      const asCreated: Invoice.Invoice = {
        ...invoice,
        status: "pending",
        paidAt: null,
        refusedReason: null,
        timeline: invoice.timeline.slice(0, 1),
        movements: []
      }
      yield* record(InvoiceStatus.eventType("pending"), asCreated, totalsBefore)
      yield* record(InvoiceStatus.eventType(invoice.status), invoice, totals)
    }
    return { invoice, company, totals } satisfies InvoiceView
  })

  /** Records an event of a locked invoice as it now is, with the company's totals as they now are. */
  const recordEventWith = Effect.fnUntraced(function* (
    company: Company.Company,
    invoice: Invoice.Invoice,
    totals: Company.CompanyTotals,
    type: string,
    at: Timestamp.Timestamp,
    reason?: string
  ) {
    yield* outbox.recordEvent({
      id: `evt_${randomUuid()}`,
      postbackUrl: invoice.postbackUrl,
      companyId: company.id,
      invoiceId: invoice.id,
      type,
      livemode: invoice.mode === "live",
      data: InvoiceTransaction.render(invoice, company, totals),
      createdAt: at,
      reason
    })
    return { invoice, company, totals } satisfies InvoiceView
  })

  /** `recordEventWith` the company's totals read now. */
  const recordEvent = Effect.fnUntraced(function* (
    company: Company.Company,
    invoice: Invoice.Invoice,
    type: string,
    at: Timestamp.Timestamp,
    reason?: string
  ) {
    return yield* recordEventWith(
      company,
      invoice,
      yield* companies.totals(company.id, invoice.mode, at),
      type,
      at,
      reason
    )
  })

  /**
   * Settles a locked pending card invoice with its charge's outcome (Moves.settleCardCharge: paid, or refused for a
   * reason) and the terms the charge fixed, and records its event.
   */
  const settleCardInvoice = Effect.fnUntraced(function* (
    company: Company.Company,
    invoice: Invoice.Invoice,
    terms: CardChargeTerms,
    settlement: Moves.CardSettlement
  ) {
    const settled = yield* invoices.settleCardPayment(invoice, {
      ...terms,
      status: settlement.status,
      event: settlement.event,
      refusedReason: settlement.refusedReason,
      at: settlement.at,
      movements: settlement.movements,
      receivables: settlement.receivables
    })
    return yield* recordEvent(company, settled, settlement.event, settlement.at)
  })

  /**
   * Moves a locked invoice (SPEC 7.1) and records the move's event; the event shows it as it is after, with the
   * company's totals after it: read then, or, given the totals before it (read in this transaction, under the
   * company's ledger lock), those with what the move wrote.
   */
  const move = Effect.fnUntraced(function* (
    company: Company.Company,
    invoice: Invoice.Invoice,
    transition: Transition,
    totalsBefore?: Company.CompanyTotals
  ) {
    const moved = yield* invoices.applyTransition(invoice, transition)
    if (totalsBefore === undefined) {
      return yield* recordEvent(company, moved, transition.event, transition.at, transition.detail)
    }
    const paid = invoice.paidAt === null && transition.paidAt !== null ? invoice.amount : 0
    const totals = Company.totalsAfter(totalsBefore, transition.movements, paid)
    return yield* recordEventWith(company, moved, totals, transition.event, transition.at, transition.detail)
  })

  /**
   * Refuses `action` on a locked pending card invoice while a charge of it waits for the acquirer's answer: that
   * answer settles the invoice (CardCharges), and nothing else may move it meanwhile — a sandbox expiry, a second
   * payment. Under the invoice's lock, a charge recorded by another transaction is seen once that one committed, and
   * none is recorded until this one ends.
   */
  const refuseWhileCharging = (invoice: Invoice.Invoice, action: InvoiceStatus.InvoiceAction) =>
    invoice.status !== "pending" || invoice.method !== "credit_card"
      ? Effect.void
      : Effect.flatMap(charges.chargeInFlight(invoice.id), (inFlight) =>
          Option.isNone(inFlight)
            ? Effect.void
            : Effect.fail(
                new MoveNotAllowed({
                  reason: `cannot ${InvoiceStatus.operationOf[action]} an invoice whose card payment is waiting for the acquirer's answer`
                })
              )
        )

  return { insertCreated, settleCardInvoice, recordEvent, recordEventWith, move, refuseWhileCharging }
})
