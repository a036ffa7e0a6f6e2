// The payer's card payment of a pending card invoice (SPEC 4.7): the charge recorded under the company's and the
// invoice's locks, sent to the acquirer with nothing held, and settled after. A charge answered once the invoice was no
// longer pending paid nothing, and the payer is told so.
import { type Card, type Company, FeePlan, type Invoice, InvoiceStatus, Moves } from "@fatura/domain"
import { Effect, Option } from "effect"
import { companyOf } from "../companies/CompanyRepository.js"
import { ClientRepository } from "../invoices/ClientRepository.js"
import type { InvoiceView } from "../invoices/InvoiceInput.js"
import * as InvoiceRecords from "../invoices/InvoiceRecords.js"
import { InvoiceRepository } from "../invoices/InvoiceRepository.js"
import * as RecoveryPoint from "../invoices/RecoveryPoint.js"
import * as Resume from "../invoices/Resume.js"
import * as Clock from "../platform/Clock.js"
import {
  type AcquirerUnavailable,
  type InvalidCardData,
  InvoiceNotFound,
  MoveNotAllowed,
  type StorageUnavailable
} from "../platform/Failures.js"
import { CurrentIdempotentRun, type LeaseLost } from "../platform/IdempotencyStore.js"
import { randomUuid } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import { CardAcquirer } from "./CardAcquirer.js"
import { type CardCharge, CardChargeRepository, type CardChargeTerms } from "./CardChargeRepository.js"
import { CardCharges } from "./CardCharges.js"
import * as CardPayment from "./CardPayment.js"

/** An invoice and the company it is of, as the payer's side shows them. */
export interface PayerView {
  readonly invoice: Invoice.Invoice
  readonly company: Company.Company
}

/** The invoice a payer holds the checkout token of, with its company. */
type FindForPayer = (secureId: string, token: string) => Effect.Effect<PayerView, InvoiceNotFound | StorageUnavailable>

/** Pays a pending card invoice from the payer's side, with a card token or card fields. */
export type PayForPayer = (
  secureId: string,
  checkoutToken: string,
  card: CardPayment.CardInput
) => Effect.Effect<
  PayerView,
  | InvoiceNotFound
  | MoveNotAllowed
  | Card.InstallmentTooSmall
  | InvalidCardData
  | AcquirerUnavailable
  | StorageUnavailable
  | LeaseLost
>

/**
 * What the payer is answered: the invoice its payment paid or refused, or, for a charge answered when the invoice was
 * no longer pending, a refusal: it paid nothing, and an approved charge is given back.
 */
const answered = ({ view, late }: Resume.Resumed) =>
  late
    ? Effect.fail(
        new MoveNotAllowed({
          reason: `cannot pay an invoice that is ${view.invoice.status}: it stopped being pending while the acquirer answered, so the card payment paid nothing and any amount approved is given back to the card`
        })
      )
    : Effect.succeed({ invoice: view.invoice, company: view.company })

const settled = (view: InvoiceView) => answered({ view, late: false })

export const make = (findForPayer: FindForPayer) =>
  Effect.gen(function* () {
    const invoices = yield* InvoiceRepository
    const clients = yield* ClientRepository
    const charges = yield* CardChargeRepository
    const transactions = yield* Transactions
    const acquirer = yield* CardAcquirer
    const cardCharges = yield* CardCharges
    const records = yield* InvoiceRecords.make
    const cards = yield* CardPayment.make
    const resume = yield* Resume.make

    const payForPayer: PayForPayer = Effect.fn("Invoices.payForPayer")(function* (
      secureId: string,
      checkoutToken: string,
      card: CardPayment.CardInput
    ) {
      const found = yield* findForPayer(secureId, checkoutToken)
      const run = yield* CurrentIdempotentRun
      if (run?.recoveryPoint != null) {
        const resumed = yield* resume(yield* RecoveryPoint.read(run.recoveryPoint))
        if (resumed !== null) return yield* answered(resumed)
      }
      // Before anything is recorded: a payment no acquirer can take leaves nothing behind.
      yield* transactions.external(acquirer.available(found.invoice.mode))
      const started = yield* transactions.withTransaction(
        Effect.gen(function* () {
          // The lock order (InvoiceRepository.lockCompanyLedger): the company, then the invoice. Both are held only
          // while the charge is recorded, and again while it is settled; never while the acquirer answers.
          const company = yield* companyOf(invoices.lockCompanyLedger(found.company.id), found.company.id)
          const locked = yield* invoices.lock(company.id, found.invoice.mode, { _tag: "Id", id: found.invoice.id })
          if (Option.isNone(locked)) return yield* new InvoiceNotFound({ reference: secureId })
          const invoice = locked.value
          if (invoice.method !== "credit_card") {
            return yield* new MoveNotAllowed({ reason: `cannot pay a ${invoice.method} invoice with a card` })
          }
          yield* Effect.fromResult(InvoiceStatus.transition(invoice.status, "pay")).pipe(
            Effect.mapError((refused) => new MoveNotAllowed({ reason: refused.message }))
          )
          yield* records.refuseWhileCharging(invoice, "pay")
          const installments = yield* CardPayment.checkInstallments(invoice.amount, card.installment)
          const now = yield* Clock.now
          const prepared = yield* cards.prepare({ company, mode: invoice.mode }, card, now)
          const terms: CardChargeTerms = {
            installments,
            fee: FeePlan.split(company.feePlan, "credit_card", installments, invoice.amount),
            card: prepared.details,
            cardAssociate: yield* CardPayment.associate(clients, company, invoice.client.id, prepared.details, now)
          }
          if (prepared.refusedUpfront) {
            const refused = yield* Effect.fromResult(
              Moves.settleCardCharge(invoice, terms, "authentication_required", now, company.feePlan)
            ).pipe(Effect.mapError((refusal) => new MoveNotAllowed({ reason: refusal.message })))
            const view = yield* records.settleCardInvoice(company, invoice, terms, refused)
            yield* RecoveryPoint.checkpoint({ invoice: invoice.id })
            return { _tag: "Settled", view } as const
          }
          const charge: CardCharge = {
            reference: `ch_${randomUuid()}`,
            invoiceId: invoice.id,
            companyId: company.id,
            mode: invoice.mode,
            state: "requested",
            terms,
            draft: null,
            requestedAt: now,
            reversal: null
          }
          yield* charges.recordCardCharge(charge)
          yield* RecoveryPoint.checkpoint({ cardCharge: charge.reference })
          return { _tag: "Charging", charge, prepared, amount: invoice.amount } as const
        })
      )
      return yield* started._tag === "Settled"
        ? settled(started.view)
        : cardCharges
            .send(started.charge, {
              mode: started.charge.mode,
              amount: started.amount,
              installments: started.charge.terms.installments,
              card: started.prepared.source,
              threeDSecure: started.prepared.threeDSecure
            })
            .pipe(Effect.flatMap((sent) => answered({ view: sent.view, late: sent.state === "late" })))
    })
    return payForPayer
  })
