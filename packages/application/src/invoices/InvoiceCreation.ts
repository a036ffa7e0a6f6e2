// Creating an invoice of any method (SPEC 4.1, 6). A create reads: resume → company → draft → the method's module
// (pix charge, boleto slip, or card payment) → stored → metrics.
import { type Cents, Company, FeePlan, Invoice, Moves } from "@fatura/domain"
import { Effect } from "effect"
import * as BoletoSlip from "../boletos/BoletoSlip.js"
import { CardAcquirer } from "../cards/CardAcquirer.js"
import { type CardCharge, CardChargeRepository } from "../cards/CardChargeRepository.js"
import { CardCharges } from "../cards/CardCharges.js"
import * as CardPayment from "../cards/CardPayment.js"
import { CompanyRepository, companyOf } from "../companies/CompanyRepository.js"
import type { Principal } from "../companies/Principal.js"
import * as PixCharge from "../pix/PixCharge.js"
import * as Clock from "../platform/Clock.js"
import { CompanyBlocked } from "../platform/Failures.js"
import { CurrentIdempotentRun } from "../platform/IdempotencyStore.js"
import * as Metrics from "../platform/Metrics.js"
import { randomUrlToken, randomUuid } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import { AllowPrivatePostbacksInTest, PostbackTargets, privateTargetsAllowed } from "../postbacks/PostbackTargets.js"
import { ClientRepository } from "./ClientRepository.js"
import type { CreateInvoiceFailure, CreateInvoiceInput, InvoiceView } from "./InvoiceInput.js"
import * as InvoiceRecords from "./InvoiceRecords.js"
import type { NewInvoice } from "./InvoiceRepository.js"
import * as RecoveryPoint from "./RecoveryPoint.js"
import * as Resume from "./Resume.js"

/** Creates an invoice of any method, as the caller asked, or resumes the run that was creating it. */
export type Create = (
  principal: Principal,
  input: CreateInvoiceInput
) => Effect.Effect<InvoiceView, CreateInvoiceFailure>

export const make = Effect.gen(function* () {
  const clients = yield* ClientRepository
  const charges = yield* CardChargeRepository
  const companies = yield* CompanyRepository
  const transactions = yield* Transactions
  const targets = yield* PostbackTargets
  const cardCharges = yield* CardCharges
  const acquirer = yield* CardAcquirer
  const records = yield* InvoiceRecords.make
  const cards = yield* CardPayment.make
  const pix = yield* PixCharge.make
  const boletos = yield* BoletoSlip.make
  const resume = yield* Resume.make
  // Read once, when the service is built, from whatever configured it.
  const allowPrivatePostbacksInTest = yield* AllowPrivatePostbacksInTest

  /** The invoice's items: as sent, or one for the whole amount; their total checked against the amount. */
  const itemsOf = (input: CreateInvoiceInput, amount: Cents.Cents) => {
    if (input.items === null) {
      const whole = { title: Invoice.defaultItemTitle, description: null, quantity: 1, unitPrice: amount }
      return Effect.succeed<ReadonlyArray<Invoice.InvoiceItem>>([{ ...whole, tangible: input.tangible }])
    }
    const items: ReadonlyArray<Invoice.InvoiceItem> = input.items.map((item) => ({
      title: item.name,
      description: item.description,
      quantity: item.quantity,
      unitPrice: item.unitPrice as Cents.Cents,
      tangible: input.tangible
    }))
    return Effect.as(Effect.fromResult(Invoice.checkItemsTotal(items, amount)), items)
  }

  // The use cases every request runs are untraced: `Effect.fn` captures a call site and opens a span on each call,
  // which the server (its tracer off) pays for and never reads (issue 25).
  const create: Create = Effect.fnUntraced(function* (principal: Principal, input: CreateInvoiceInput) {
    const run = yield* CurrentIdempotentRun
    const point = run?.recoveryPoint == null ? null : yield* RecoveryPoint.read(run.recoveryPoint)
    if (point !== null) {
      // A create's charge creates its invoice when it settles: it is never late.
      const resumed = yield* resume(point)
      if (resumed !== null) return resumed.view
    }
    const now = yield* Clock.now
    // The totals as the invoice is created: what the created event and a pending invoice's answer show.
    const { company, totals: totalsBefore } = yield* companyOf(
      companies.findWithTotals(principal.companyId, principal.mode, now),
      principal.companyId
    )
    const block = Company.creationBlock(company.blocks, input.method)
    if (block !== undefined) return yield* new CompanyBlocked({ block })

    const amount = yield* Effect.fromResult(Invoice.checkAmount(input.totalPriceCents))
    if (input.postbackUrl !== null && !privateTargetsAllowed(principal.mode, allowPrivatePostbacksInTest)) {
      yield* transactions.external(targets.check(input.postbackUrl))
    }
    const items = yield* itemsOf(input, amount)
    // A retry of a create whose pix charge may have been asked for is the same invoice, so that it asks the
    // provider for the same charge.
    const secureId = point !== null && "pixInvoice" in point ? point.pixInvoice : (randomUuid() as Invoice.SecureId)
    const tokenCheckout = randomUrlToken()
    const card = input.method === "credit_card" ? input.card : null
    const installments =
      input.method === "credit_card" ? yield* CardPayment.checkInstallments(amount, input.card?.installment ?? null) : 1
    // A card payment no acquirer can take is refused before anything of it is recorded, even one that would be
    // refused without asking the acquirer (3-D Secure required and missing).
    if (card !== null) yield* transactions.external(acquirer.available(principal.mode))

    // The providers are asked first, outside any transaction; what they answer is stored below.
    const pixCharge =
      input.method === "pix"
        ? yield* pix.charge({
            company,
            secureId,
            amount,
            expiresIn: input.expiresIn,
            now,
            payer: { name: input.payer.name, document: input.payer.document },
            items
          })
        : null
    const boleto =
      input.method === "bank_slip"
        ? yield* boletos.issue({
            company,
            secureId,
            tokenCheckout,
            amount,
            dueDate: input.dueDate,
            today: Clock.businessDate(now)
          })
        : null
    // A boleto is hybrid when the provider makes charges with a due date: payable by pix until the same day ends.
    const dueCharge =
      boleto === null
        ? null
        : yield* pix.dueCharge({
            company,
            secureId,
            amount,
            dueDate: boleto.dueDate,
            payer: { name: input.payer.name, document: input.payer.document },
            items
          })

    const pending: NewInvoice = {
      secureId,
      companyId: company.id,
      mode: principal.mode,
      method: input.method,
      status: "pending",
      amount,
      installments,
      createdAt: now,
      updatedAt: now,
      paidAt: null,
      refundedAmount: 0 as Cents.Cents,
      refusedReason: null,
      postbackUrl: input.postbackUrl,
      traceable: input.tangible,
      ip: input.ip,
      metadata: input.metadata,
      externalRef: input.externalRef,
      items,
      payer: input.payer,
      tokenCheckout,
      fee: FeePlan.split(company.feePlan, input.method, installments, amount),
      pix: pixCharge ?? dueCharge,
      boleto,
      card: null
    }

    // A card is charged after this transaction has recorded the charge, with the invoice to create when it
    // settles; every other invoice is created here.
    const stored = yield* transactions.withTransaction(
      Effect.gen(function* () {
        const client = yield* clients.upsertClient({
          companyId: company.id,
          mode: principal.mode,
          document: input.payer.document,
          name: input.payer.name,
          email: input.payer.email,
          phone: input.payer.phone,
          now
        })
        const created = (invoice: NewInvoice, cardAssociate: Invoice.CardAssociate | null) =>
          Effect.tap(
            records.insertCreated(
              company,
              invoice,
              client,
              cardAssociate,
              { movements: [], receivables: [] },
              totalsBefore
            ),
            (view) =>
              Effect.andThen(
                boletos.queueRegistration(view.invoice, now),
                RecoveryPoint.checkpoint({ invoice: view.invoice.id })
              )
          ).pipe(Effect.map((view) => ({ _tag: "Created", view }) as const))
        if (card === null) return yield* created(pending, null)
        const prepared = yield* cards.prepare({ company, mode: principal.mode }, card, now)
        const cardAssociate = yield* CardPayment.associate(clients, company, client.id, prepared.details, now)
        const draft: NewInvoice = { ...pending, card: prepared.details }
        if (prepared.refusedUpfront) {
          // Refused without asking the acquirer: the invoice is created as its charge's refusal settles it.
          const refused = yield* Effect.orDie(
            Effect.fromResult(Moves.settleCardCharge(draft, pending, "authentication_required", now, company.feePlan))
          )
          return yield* created(
            { ...draft, status: refused.status, paidAt: refused.paidAt, refusedReason: refused.refusedReason },
            cardAssociate
          )
        }
        const charge: CardCharge = {
          reference: `ch_${randomUuid()}`,
          invoiceId: null,
          companyId: company.id,
          mode: principal.mode,
          state: "requested",
          terms: { installments, fee: pending.fee, card: prepared.details, cardAssociate },
          draft: { invoice: draft, client },
          requestedAt: now,
          reversal: null
        }
        yield* charges.recordCardCharge(charge)
        yield* RecoveryPoint.checkpoint({ cardCharge: charge.reference })
        return { _tag: "Charging", charge, prepared } as const
      })
    )
    // A create's charge creates its invoice when it settles: it is never late.
    const view =
      stored._tag === "Created"
        ? stored.view
        : (yield* cardCharges.send(
            stored.charge,
            {
              mode: principal.mode,
              amount,
              installments,
              card: stored.prepared.source,
              threeDSecure: stored.prepared.threeDSecure
            },
            { company, totals: totalsBefore }
          )).view
    yield* Metrics.countInvoiceCreated(view.invoice.method, view.invoice.status)
    return view
  })

  return create
})
