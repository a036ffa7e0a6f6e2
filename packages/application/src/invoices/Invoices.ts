// Use cases of invoices: creating one of any method (SPEC 4.1, 6) and finding one of the caller's (SPEC 4.2).
import {
  Card,
  type Cents,
  Company,
  type Document,
  FeePlan,
  Invoice,
  InvoiceStatus,
  type PaymentMethod,
  PixKey,
  Timestamp
} from "@fatura/domain"
import { Context, Effect, Layer, Option, Result } from "effect"
import { BoletoIssuer } from "../boletos/BoletoIssuer.js"
import { CardAcquirer, type CardData, type CardSource, type ThreeDSecureOutcome } from "../cards/CardAcquirer.js"
import { CardCharges } from "../cards/CardCharges.js"
import { CardTokenRepository } from "../cards/CardTokenRepository.js"
import { CompanyRepository, companyOf } from "../companies/CompanyRepository.js"
import type { Principal } from "../companies/Principal.js"
import { PixProvider } from "../pix/PixProvider.js"
import * as Clock from "../platform/Clock.js"
import {
  type AcquirerUnavailable,
  CompanyBlocked,
  InvalidCardData,
  InvalidDueDate,
  InvoiceNotFound,
  MoveNotAllowed,
  type PixProviderRefused,
  type PixProviderUnavailable,
  type StorageUnavailable,
  UnknownCursor,
  UnusablePixKey
} from "../platform/Failures.js"
import { CurrentIdempotentRun, checkpoint as checkpointRun } from "../platform/IdempotencyStore.js"
import * as Metrics from "../platform/Metrics.js"
import { PublicBaseUrl } from "../platform/PublicBaseUrl.js"
import { publicTokenCandidate, randomUrlToken, randomUuid, sha256Hex } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import {
  AllowPrivatePostbacksInTest,
  type PostbackTargetRefused,
  PostbackTargets
} from "../postbacks/PostbackTargets.js"
import * as InvoiceRecords from "./InvoiceRecords.js"
import {
  type CardCharge,
  type CardChargeTerms,
  type InvoiceReference,
  InvoiceRepository,
  type NewInvoice
} from "./InvoiceRepository.js"

export interface ItemInput {
  readonly name: string
  readonly description: string | null
  readonly quantity: number
  readonly unitPrice: number
}

export interface CardInput {
  readonly token: string | null
  readonly installment: number | null
  readonly number: string | null
  readonly firstName: string | null
  readonly lastName: string | null
  readonly month: string | null
  readonly year: string | null
  readonly securityCode: string | null
  readonly cavv: string | null
  readonly eci: string | null
  readonly version: string | null
}

/** A create request whose shape and formats the contract has already checked; business rules are checked here. */
export interface CreateInvoiceInput {
  readonly method: PaymentMethod.PaymentMethod
  readonly totalPriceCents: number
  readonly items: ReadonlyArray<ItemInput> | null
  readonly tangible: boolean
  readonly payer: {
    readonly name: string
    readonly document: Document.Document
    readonly email: string
    readonly phone: string | null
    readonly address: Invoice.PayerAddress
  }
  readonly ip: string | null
  readonly postbackUrl: string | null
  readonly externalRef: string | null
  readonly metadata: Readonly<Record<string, string>> | null
  readonly expiresIn: number | null
  readonly dueDate: string | null
  readonly card: CardInput | null
}

export interface InvoiceView {
  readonly invoice: Invoice.Invoice
  readonly company: Company.Company
  readonly totals: Company.CompanyTotals
}

export interface ListQuery {
  readonly limit: number
  readonly startingAfter: string | null
  readonly status: InvoiceStatus.InvoiceStatus | null
  readonly method: PaymentMethod.PaymentMethod | null
  readonly createdGte: Timestamp.Timestamp | null
  readonly createdLte: Timestamp.Timestamp | null
  readonly externalRef: string | null
}

export interface InvoicePage {
  readonly invoices: ReadonlyArray<Invoice.Invoice>
  readonly company: Company.Company
  readonly totals: Company.CompanyTotals
  readonly hasMore: boolean
}

export type CreateInvoiceFailure =
  | CompanyBlocked
  | Invoice.AmountOutOfRange
  | Invoice.TotalMismatch
  | Card.InstallmentTooSmall
  | InvalidCardData
  | InvalidDueDate
  | AcquirerUnavailable
  | PixProviderUnavailable
  | PixProviderRefused
  | PostbackTargetRefused
  | UnusablePixKey
  | StorageUnavailable

export const defaultPixExpiresIn = 86_400
export const defaultBoletoDueInDays = 3
export const maximumBoletoDueInDays = 365

/**
 * How far a create or a payment run under an Idempotency-Key got: the secureId of a pix invoice whose charge it was
 * about to ask for (a retry asks for the same charge), the card charge it recorded, or its invoice.
 */
type RecoveryPoint =
  | { readonly pixInvoice: Invoice.SecureId }
  | { readonly cardCharge: string }
  | { readonly invoice: Invoice.InvoiceId }

const recoveryPointOf = (text: string): RecoveryPoint => JSON.parse(text) as RecoveryPoint

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** Reads the `id` the merchant sent: a secureId, or the numeric id. Anything else names no invoice. */
export const parseReference = (raw: string): Option.Option<InvoiceReference> => {
  const text = raw.trim()
  if (/^[1-9][0-9]{0,14}$/.test(text)) return Option.some({ _tag: "Id", id: Number(text) as Invoice.InvoiceId })
  const lower = text.toLowerCase()
  if (uuidPattern.test(lower)) return Option.some({ _tag: "SecureId", secureId: lower as Invoice.SecureId })
  return Option.none()
}

/** Compares secrets in time that does not depend on where they differ. */
const sameSecret = (expected: string, given: string): boolean => {
  const a = new TextEncoder().encode(expected)
  const b = new TextEncoder().encode(given)
  let difference = a.length ^ b.length
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i % Math.max(b.length, 1)] ?? 0)
  return difference === 0
}

/** A card checked and ready to charge: as the acquirer gets it, and as the invoice shows it. */
interface PreparedCard {
  readonly source: CardSource
  readonly details: Invoice.CardDetails
  readonly threeDSecure: ThreeDSecureOutcome
  /** Refused without asking the acquirer: the company requires 3-D Secure and the payment was not authenticated. */
  readonly refusedUpfront: boolean
}

/** The installments asked for (one when none), in the contract's words when out of range. */
const checkInstallments = (amount: Cents.Cents, requested: number | null) =>
  Effect.fromResult(Card.checkInstallments(amount, requested ?? 1)).pipe(
    Effect.catchTag("InvalidInstallments", () =>
      Effect.fail(new InvalidCardData({ field: "card.installment", reason: "must be from 1 to 12" }))
    )
  )

const cardField = <A>(result: Result.Result<A, Card.InvalidCard>) =>
  Result.isSuccess(result)
    ? Effect.succeed(result.success)
    : Effect.fail(new InvalidCardData({ field: `card.${result.failure.field}`, reason: result.failure.reason }))

export class Invoices extends Context.Service<
  Invoices,
  {
    readonly create: (
      principal: Principal,
      input: CreateInvoiceInput
    ) => Effect.Effect<InvoiceView, CreateInvoiceFailure>
    readonly find: (
      principal: Principal,
      reference: string
    ) => Effect.Effect<InvoiceView, InvoiceNotFound | StorageUnavailable>
    readonly list: (
      principal: Principal,
      query: ListQuery
    ) => Effect.Effect<InvoicePage, UnknownCursor | StorageUnavailable>
    /** Pays a pending card invoice from the payer's side, with a card token or card fields (SPEC 4.7). */
    readonly payForPayer: (
      secureId: string,
      checkoutToken: string,
      card: CardInput
    ) => Effect.Effect<
      { readonly invoice: Invoice.Invoice; readonly company: Company.Company },
      | InvoiceNotFound
      | MoveNotAllowed
      | Card.InstallmentTooSmall
      | InvalidCardData
      | AcquirerUnavailable
      | StorageUnavailable
    >
    /** The invoice a payer holds the checkout token of; any other token finds nothing. */
    readonly findForPayer: (
      secureId: string,
      token: string
    ) => Effect.Effect<
      { readonly invoice: Invoice.Invoice; readonly company: Company.Company },
      InvoiceNotFound | StorageUnavailable
    >
    /** What the hosted checkout page shows (SPEC 11.3): the invoice, its company and the company's public token. */
    readonly checkout: (
      secureId: string,
      token: string
    ) => Effect.Effect<
      { readonly invoice: Invoice.Invoice; readonly company: Company.Company; readonly publicToken: string },
      InvoiceNotFound | StorageUnavailable
    >
  }
>()("@fatura/application/Invoices") {
  static readonly layer = Layer.effect(
    Invoices,
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const pix = yield* PixProvider
      const boletos = yield* BoletoIssuer
      const targets = yield* PostbackTargets
      const cardTokens = yield* CardTokenRepository
      const cardCharges = yield* CardCharges
      const acquirer = yield* CardAcquirer
      const records = InvoiceRecords.make(invoices, companies)
      // Settings are read once, when the service is built, from whatever configured it.
      const publicBaseUrl = yield* PublicBaseUrl
      const allowPrivatePostbacksInTest = yield* AllowPrivatePostbacksInTest

      /** The card to charge: a token's vaulted card (used up here), or the card fields as sent. */
      const cardSource = Effect.fnUntraced(function* (
        payer: { readonly company: Company.Company; readonly mode: Invoice.Mode },
        card: CardInput,
        today: string,
        now: Timestamp.Timestamp
      ) {
        if (card.token !== null) {
          const vaulted = yield* cardTokens.consume(payer.company.id, payer.mode, yield* sha256Hex(card.token), now)
          if (Option.isNone(vaulted)) {
            return yield* new InvalidCardData({ field: "card.token", reason: "unknown, used or expired card token" })
          }
          const { acquirerReference, ...shown } = vaulted.value
          return { source: { _tag: "Vaulted", reference: acquirerReference, brand: shown.brand }, shown } as const
        }
        const missing = (["number", "firstName", "lastName", "month", "year", "securityCode"] as const).find(
          (name) => card[name] === null
        )
        if (missing !== undefined) {
          const wire = { firstName: "first_name", lastName: "last_name", securityCode: "security_code" } as const
          const name = missing in wire ? wire[missing as keyof typeof wire] : missing
          return yield* new InvalidCardData({ field: `card.${name}`, reason: "is required" })
        }
        const number = Card.normalizeNumber(card.number ?? "")
        const brand = Card.detectBrand(number)
        if (brand === undefined) {
          return yield* new InvalidCardData({ field: "card.number", reason: "is not a card brand we accept" })
        }
        const [year, month] = today.split("-").map(Number) as [number, number]
        const expiry = yield* cardField(
          Card.parseExpiry({ month: card.month ?? "", year: card.year ?? "" }, { year, month })
        )
        const holderName = `${card.firstName} ${card.lastName}`.trim()
        const data: CardData = {
          number,
          holderName,
          expirationMonth: expiry.month,
          expirationYear: expiry.year,
          securityCode: card.securityCode ?? "",
          brand
        }
        return {
          source: { _tag: "Card", ...data },
          shown: {
            brand,
            ...Card.mask(number),
            holderName,
            expirationMonth: expiry.month,
            expirationYear: expiry.year
          }
        } as const
      })

      /** Checks the card; the card number and security code go no further than the acquirer. */
      const prepareCard = Effect.fnUntraced(function* (
        payer: { readonly company: Company.Company; readonly mode: Invoice.Mode },
        card: CardInput,
        now: Timestamp.Timestamp
      ) {
        const { source, shown } = yield* cardSource(payer, card, Clock.businessDate(now), now)
        const threeDSecure = Card.classifyThreeDSecure({ eci: card.eci, cavv: card.cavv })
        const details: Invoice.CardDetails = {
          ...shown,
          threeDSecure:
            card.eci === null && card.cavv === null
              ? null
              : { eci: card.eci, version: card.version, authenticated: threeDSecure === "authenticated" }
        }
        return {
          source,
          details,
          threeDSecure,
          refusedUpfront: payer.company.isActive3ds && threeDSecure === "unauthenticated"
        } satisfies PreparedCard
      })

      /** Records where a run under an Idempotency-Key got to, in the transaction that got it there. */
      const checkpoint = (point: RecoveryPoint) => checkpointRun(point)

      /**
       * What an earlier run of this create or payment, under the same Idempotency-Key, came to before it died or gave
       * up: its invoice, once its charge is settled (asking the acquirer, never charging again), and whether that
       * charge came too late to pay it. Null when nothing came of it (its charge did not happen): the request runs
       * anew.
       */
      const resume = Effect.fnUntraced(function* (
        point: RecoveryPoint
      ): Effect.fn.Return<
        { readonly view: InvoiceView; readonly late: boolean } | null,
        AcquirerUnavailable | StorageUnavailable
      > {
        if ("pixInvoice" in point) return null
        if ("invoice" in point) {
          const found = yield* invoices.findById(point.invoice)
          if (Option.isNone(found)) return null
          const view = yield* invoices.findWithCompany(
            found.value.companyId,
            found.value.mode,
            { _tag: "Id", id: point.invoice },
            yield* Clock.now
          )
          return Option.isNone(view) ? null : { view: view.value, late: false }
        }
        const settled = yield* cardCharges.resume(point.cardCharge)
        if (Option.isNone(settled) || settled.value.state === "void" || settled.value.view === null) return null
        return { view: settled.value.view, late: settled.value.state === "late" }
      })

      const create = Effect.fn("Invoices.create")(function* (principal: Principal, input: CreateInvoiceInput) {
        const run = yield* CurrentIdempotentRun
        const point = run?.recoveryPoint == null ? null : recoveryPointOf(run.recoveryPoint)
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
        if (input.postbackUrl !== null && (principal.mode === "live" || !allowPrivatePostbacksInTest)) {
          yield* transactions.external(targets.check(input.postbackUrl))
        }
        const items: ReadonlyArray<Invoice.InvoiceItem> =
          input.items === null
            ? [
                {
                  title: Invoice.defaultItemTitle,
                  description: null,
                  quantity: 1,
                  unitPrice: amount,
                  tangible: input.tangible
                }
              ]
            : input.items.map((item) => ({
                title: item.name,
                description: item.description,
                quantity: item.quantity,
                unitPrice: item.unitPrice as Cents.Cents,
                tangible: input.tangible
              }))
        if (input.items !== null) yield* Effect.fromResult(Invoice.checkItemsTotal(items, amount))

        const today = Clock.businessDate(now)
        // A retry of a pix create whose charge may have been asked for is the same invoice, so that it asks the
        // provider for the same charge.
        const secureId = point !== null && "pixInvoice" in point ? point.pixInvoice : (randomUuid() as Invoice.SecureId)
        const tokenCheckout = randomUrlToken()
        const installments =
          input.method === "credit_card" ? yield* checkInstallments(amount, input.card?.installment ?? null) : 1
        // A card payment no acquirer can take is refused before anything of it is recorded, even one that would be
        // refused without asking the acquirer (3-D Secure required and missing).
        if (input.method === "credit_card" && input.card !== null) {
          yield* transactions.external(acquirer.available(principal.mode))
        }

        // The providers are asked first, outside any transaction; what they answer is stored below.
        let pixCharge: Invoice.PixCharge | null = null
        let boleto: Invoice.BoletoSlip | null = null
        switch (input.method) {
          case "pix": {
            // Keys are checked when they are set, but a company registered before that may hold one no BR Code
            // can carry; a key that is valid but was stored as typed is written in its canonical form.
            const { key: pixKey } = yield* Effect.fromResult(PixKey.parse(company.pixKey)).pipe(
              Effect.mapError((invalid) => new UnusablePixKey({ reason: invalid.reason }))
            )
            const txid = pix.txidOf(secureId)
            const expiresIn = input.expiresIn ?? defaultPixExpiresIn
            const expiresAt = Timestamp.plusSeconds(now, expiresIn)
            yield* checkpoint({ pixInvoice: secureId })
            const { qrCode } = yield* transactions.external(
              pix.charge({
                company,
                pixKey,
                amount,
                txid,
                expiresAt,
                expiresIn,
                payer: { name: input.payer.name, document: input.payer.document },
                summary: Invoice.chargeSummary(items)
              })
            )
            pixCharge = { qrCode, txid, expiresAt, endToEndId: null }
            break
          }
          case "bank_slip": {
            const dueDate = input.dueDate ?? Clock.addDays(today, defaultBoletoDueInDays)
            const latest = Clock.addDays(today, maximumBoletoDueInDays)
            if (dueDate < today || dueDate > latest) {
              return yield* new InvalidDueDate({ dueDate, reason: `must be between ${today} and ${latest}` })
            }
            const ourNumber = yield* invoices.nextOurNumber
            const issued = yield* transactions.external(boletos.issue({ company, amount, dueDate, ourNumber }))
            boleto = {
              ...issued,
              dueDate,
              ourNumber,
              url: `${publicBaseUrl}/api/v2/public/invoices/${secureId}/boleto.pdf?token=${tokenCheckout}`
            }
            break
          }
          case "credit_card":
            break
        }

        const fee = FeePlan.split(company.feePlan, input.method, installments, amount)
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
          fee,
          pix: pixCharge,
          boleto,
          card: null
        }

        // A card is charged after this transaction has recorded the charge, with the invoice to create when it
        // settles; every other invoice is created here.
        const stored = yield* transactions.withTransaction(
          Effect.gen(function* () {
            const client = yield* invoices.upsertClient({
              companyId: company.id,
              mode: principal.mode,
              document: input.payer.document,
              name: input.payer.name,
              email: input.payer.email,
              phone: input.payer.phone,
              now
            })
            const card = input.method === "credit_card" ? input.card : null
            if (card === null) {
              const view = yield* records.insertCreated(company, pending, client, null, [], totalsBefore)
              yield* checkpoint({ invoice: view.invoice.id })
              return { _tag: "Created", view } as const
            }
            const prepared = yield* prepareCard({ company, mode: principal.mode }, card, now)
            const cardAssociate = yield* invoices.associateCard({
              companyId: company.id,
              clientId: client.id,
              brand: prepared.details.brand,
              firstDigits: prepared.details.firstDigits,
              lastDigits: prepared.details.lastDigits,
              expirationMonth: prepared.details.expirationMonth,
              expirationYear: prepared.details.expirationYear,
              now
            })
            const draft: NewInvoice = { ...pending, card: prepared.details }
            if (prepared.refusedUpfront) {
              const refused: NewInvoice = { ...draft, status: "refused", refusedReason: "authentication_required" }
              const view = yield* records.insertCreated(company, refused, client, cardAssociate, [], totalsBefore)
              yield* checkpoint({ invoice: view.invoice.id })
              return { _tag: "Created", view } as const
            }
            const charge: CardCharge = {
              reference: `ch_${randomUuid()}`,
              invoiceId: null,
              companyId: company.id,
              mode: principal.mode,
              state: "requested",
              terms: { installments, fee, card: prepared.details, cardAssociate },
              draft: { invoice: draft, client },
              requestedAt: now,
              reversal: null
            }
            yield* invoices.recordCardCharge(charge)
            yield* checkpoint({ cardCharge: charge.reference })
            return { _tag: "Charging", charge, prepared } as const
          })
        )
        // A create's charge creates its invoice when it settles: it is never late.
        const view =
          stored._tag === "Created"
            ? stored.view
            : (yield* cardCharges.send(stored.charge, {
                mode: principal.mode,
                amount,
                installments,
                card: stored.prepared.source,
                threeDSecure: stored.prepared.threeDSecure
              })).view
        yield* Metrics.countInvoiceCreated(view.invoice.method, view.invoice.status)
        return view
      })

      const find = Effect.fn("Invoices.find")(function* (principal: Principal, raw: string) {
        const reference = parseReference(raw)
        if (Option.isNone(reference)) return yield* new InvoiceNotFound({ reference: raw })
        const found = yield* invoices.findWithCompany(
          principal.companyId,
          principal.mode,
          reference.value,
          yield* Clock.now
        )
        if (Option.isNone(found)) return yield* new InvoiceNotFound({ reference: raw })
        return found.value
      })

      const findForPayer = Effect.fn("Invoices.findForPayer")(function* (secureId: string, token: string) {
        const lower = secureId.toLowerCase()
        if (!uuidPattern.test(lower)) return yield* new InvoiceNotFound({ reference: secureId })
        const found = yield* invoices.findBySecureId(lower as Invoice.SecureId)
        if (Option.isNone(found) || !sameSecret(found.value.tokenCheckout, token)) {
          return yield* new InvoiceNotFound({ reference: secureId })
        }
        const company = yield* companyOf(companies.findById(found.value.companyId), found.value.companyId)
        return { invoice: found.value, company }
      })

      const checkout = Effect.fn("Invoices.checkout")(function* (secureId: string, token: string) {
        const found = yield* findForPayer(secureId, token)
        const candidate = yield* publicTokenCandidate(found.company.id, found.invoice.mode, yield* Clock.now)
        return { ...found, publicToken: yield* companies.publicToken(candidate) }
      })

      const list = Effect.fn("Invoices.list")(function* (principal: Principal, query: ListQuery) {
        let beforeId: Invoice.InvoiceId | null = null
        if (query.startingAfter !== null) {
          const reference = parseReference(query.startingAfter)
          const cursor = Option.isNone(reference)
            ? Option.none()
            : yield* invoices.find(principal.companyId, principal.mode, reference.value)
          if (Option.isNone(cursor)) return yield* new UnknownCursor({ cursor: query.startingAfter })
          beforeId = cursor.value.id
        }
        const rows = yield* invoices.list({
          companyId: principal.companyId,
          mode: principal.mode,
          beforeId,
          status: query.status,
          method: query.method,
          createdGte: query.createdGte,
          createdLte: query.createdLte,
          externalRef: query.externalRef,
          limit: query.limit
        })
        const { company, totals } = yield* companyOf(
          companies.findWithTotals(principal.companyId, principal.mode, yield* Clock.now),
          principal.companyId
        )
        return {
          invoices: rows.slice(0, query.limit),
          company,
          totals,
          hasMore: rows.length > query.limit
        } satisfies InvoicePage
      })

      /**
       * What the payer is answered: the invoice its payment paid or refused, or, for a charge answered when the
       * invoice was no longer pending, a refusal: it paid nothing, and an approved charge is given back.
       */
      const answered = ({ view, late }: { readonly view: InvoiceView; readonly late: boolean }) =>
        late
          ? Effect.fail(
              new MoveNotAllowed({
                reason: `cannot pay an invoice that is ${view.invoice.status}: it stopped being pending while the acquirer answered, so the card payment paid nothing and any amount approved is given back to the card`
              })
            )
          : Effect.succeed({ invoice: view.invoice, company: view.company })

      const payForPayer = Effect.fn("Invoices.payForPayer")(function* (
        secureId: string,
        checkoutToken: string,
        card: CardInput
      ) {
        const found = yield* findForPayer(secureId, checkoutToken)
        const run = yield* CurrentIdempotentRun
        if (run?.recoveryPoint != null) {
          const resumed = yield* resume(recoveryPointOf(run.recoveryPoint))
          if (resumed !== null) return yield* answered(resumed)
        }
        // Before anything is recorded: a payment no acquirer can take leaves nothing behind.
        yield* transactions.external(acquirer.available(found.invoice.mode))
        const started = yield* transactions.withTransaction(
          Effect.gen(function* () {
            // The lock order (InvoiceRepository.lockCompanyLedger): the company, then the invoice. Both are held
            // only while the charge is recorded, and again while it is settled; never while the acquirer answers.
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
            const installments = yield* checkInstallments(invoice.amount, card.installment)
            const now = yield* Clock.now
            const prepared = yield* prepareCard({ company, mode: invoice.mode }, card, now)
            const cardAssociate = yield* invoices.associateCard({
              companyId: company.id,
              clientId: invoice.client.id,
              brand: prepared.details.brand,
              firstDigits: prepared.details.firstDigits,
              lastDigits: prepared.details.lastDigits,
              expirationMonth: prepared.details.expirationMonth,
              expirationYear: prepared.details.expirationYear,
              now
            })
            const terms: CardChargeTerms = {
              installments,
              fee: FeePlan.split(company.feePlan, "credit_card", installments, invoice.amount),
              card: prepared.details,
              cardAssociate
            }
            if (prepared.refusedUpfront) {
              const view = yield* records.settleCardInvoice(company, invoice, terms, "authentication_required", now)
              yield* checkpoint({ invoice: invoice.id })
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
            yield* invoices.recordCardCharge(charge)
            yield* checkpoint({ cardCharge: charge.reference })
            return { _tag: "Charging", charge, prepared, amount: invoice.amount } as const
          })
        )
        return yield* started._tag === "Settled"
          ? answered({ view: started.view, late: false })
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

      return Invoices.of({ create, find, list, findForPayer, payForPayer, checkout })
    })
  )
}
