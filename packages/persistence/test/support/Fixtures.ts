// What the contracts are exercised with: companies, clients and invoices written through the ports themselves, at
// instants the cases choose.
import { randomUUID } from "node:crypto"
import { expect } from "@effect/vitest"
import {
  ClientRepository,
  CompanyRepository,
  type Endpoint,
  EventOutbox,
  InvoiceRepository,
  type NewCompany,
  type NewInvoice,
  type Scheduled,
  WebhookEndpointRepository
} from "@fatura/application"
import {
  Cents,
  type Company,
  FeePlan,
  type Invoice,
  type InvoiceStatus,
  type PixKey,
  Receivable,
  Timestamp,
  WebhookEndpoint
} from "@fatura/domain"
import { Effect, Option } from "effect"

const start = "2026-03-02T12:00:00.000000Z" as Timestamp.Timestamp

/** An instant of the contracts' own calendar: `seconds` after its start. */
export const at = (seconds: number): Timestamp.Timestamp => Timestamp.plusSeconds(start, seconds)

const eraStart = "2019-01-01T00:00:00.000000Z" as Timestamp.Timestamp
let erasTaken = 0

/**
 * The start of a day of its own, for a case that asks what is due (deliveries, expiries), which spans every company:
 * each such case takes place a day before the case that ran before it, and years before anything else the suite
 * writes, so nothing another case wrote is ever due for it.
 */
export const freshEra = Effect.sync(() => {
  erasTaken += 1
  return Timestamp.plusSeconds(eraStart, -erasTaken * 86_400)
})

/** The calendar date of an instant (UTC) plus `days`, as bank slips and expiry sweeps take them. */
export const dateOf = (instant: Timestamp.Timestamp, days = 0) =>
  Timestamp.plusSeconds(instant, days * 86_400).slice(0, 10)

export const newCompany = (overrides: Partial<NewCompany> = {}): NewCompany => ({
  cnpj: "11222333000181",
  corporateReason: "Loja Contrato Ltda",
  fantasyName: "Loja Contrato",
  email: "financeiro@loja.example",
  pixKey: "financeiro@loja.example" as PixKey.PixKey,
  feePlan: FeePlan.defaultFeePlan,
  isCustomFeePlan: false,
  now: at(0),
  ...overrides
})

/** A company of the case's own, so that its invoices, balances and keys are the case's alone. */
export const aCompany = (overrides: Partial<NewCompany> = {}) =>
  Effect.gen(function* () {
    const companies = yield* CompanyRepository
    return yield* companies.create(newCompany(overrides))
  })

export const payer: Invoice.Payer = {
  name: "Maria Pagadora",
  document: { type: "cpf", number: "52998224725" },
  email: "maria@pagadora.example",
  phone: null,
  address: { zip: null, line: null, number: null, complement: null, city: null, state: null }
}

export const card: Invoice.CardDetails = {
  brand: "visa",
  firstDigits: "411111",
  lastDigits: "1111",
  holderName: "MARIA PAGADORA",
  expirationMonth: 12,
  expirationYear: 2031,
  threeDSecure: null
}

const randomDigits = (length: number) => Array.from({ length }, () => Math.floor(Math.random() * 10)).join("")

/** A pending invoice of `company` as a use case would draft it; `changes` override any field. */
export const draft = (company: Company.Company, changes: Partial<NewInvoice> = {}): NewInvoice => {
  const amount = changes.amount ?? Cents.make(10_000)
  const method = changes.method ?? "pix"
  const createdAt = changes.createdAt ?? at(0)
  return {
    secureId: randomUUID() as Invoice.SecureId,
    companyId: company.id,
    mode: "test",
    method,
    status: "pending",
    amount,
    installments: 1,
    createdAt,
    updatedAt: createdAt,
    paidAt: null,
    refundedAmount: Cents.make(0),
    refusedReason: null,
    postbackUrl: null,
    traceable: false,
    ip: "203.0.113.7",
    metadata: { order: "42" },
    externalRef: null,
    items: [{ title: "Invoice", description: null, quantity: 1, unitPrice: amount, tangible: false }],
    payer,
    tokenCheckout: randomUUID(),
    fee: FeePlan.split(company.feePlan, method, 1, amount),
    pix:
      method === "pix"
        ? {
            qrCode: "00020101021226",
            txid: randomDigits(25),
            expiresAt: Timestamp.plusSeconds(createdAt, 3_600),
            endToEndId: null
          }
        : null,
    boleto:
      method === "bank_slip"
        ? {
            barcode: randomDigits(44),
            digitableLine: randomDigits(47),
            dueDate: dateOf(createdAt, 3),
            url: "https://boletos.example/slip.pdf",
            bankCode: "001",
            ourNumber: randomDigits(11),
            // The sandbox's: no bank is asked to register it.
            registration: "registered"
          }
        : null,
    card: null,
    ...changes
  }
}

/** The statuses an invoice went through to reach `status` at its creation. */
const timelineTo = (status: InvoiceStatus.InvoiceStatus) => {
  const created = { status: "pending", event: "invoice.created" } as const
  return status === "pending" ? [created] : [created, { status, event: `invoice.${status}` }]
}

/** Writes the invoice of `company` with its client, as creating an invoice does. */
export const anInvoice = (
  company: Company.Company,
  changes: Partial<NewInvoice> = {},
  scheduled: Scheduled = { movements: [], receivables: [] }
) =>
  Effect.gen(function* () {
    const invoices = yield* InvoiceRepository
    const invoice = draft(company, changes)
    const client = yield* (yield* ClientRepository).upsertClient({
      companyId: company.id,
      mode: invoice.mode,
      document: invoice.payer.document,
      name: invoice.payer.name,
      email: invoice.payer.email,
      phone: invoice.payer.phone,
      now: invoice.createdAt
    })
    return yield* invoices.insert(invoice, client, null, timelineTo(invoice.status), scheduled)
  })

export const postbackUrl = "https://loja.example/postbacks"

export interface EventOptions {
  readonly postbackUrl?: string | null
  readonly livemode?: boolean
  readonly type?: string
  readonly createdAt?: Timestamp.Timestamp
}

/** Records an event of `invoice`, as a move of it does; returns its id. */
export const anEvent = (invoice: Invoice.Invoice, options: EventOptions = {}) =>
  Effect.gen(function* () {
    const outbox = yield* EventOutbox
    const id = `evt_${randomUUID()}`
    yield* outbox.recordEvent({
      id,
      postbackUrl: options.postbackUrl === undefined ? postbackUrl : options.postbackUrl,
      companyId: invoice.companyId,
      invoiceId: invoice.id,
      type: options.type ?? "invoice.created",
      livemode: options.livemode ?? false,
      data: { invoice: { id: invoice.secureId, amount: invoice.amount } },
      createdAt: options.createdAt ?? at(0)
    })
    return id
  })

export const bySecureId = (invoice: Invoice.Invoice) => ({ _tag: "SecureId", secureId: invoice.secureId }) as const
export const byId = (invoice: Invoice.Invoice) => ({ _tag: "Id", id: invoice.id }) as const

/** A plan whose payments are all available the moment they are made. */
export const availableAtOnce = { settlementDays: { pix: 0, bank_slip: 0, credit_card: 0 } }

/** The ledger entries and receivables of the payment of `invoice` at its `paidAt`, available at once. */
export const paidNow = (invoice: Pick<NewInvoice, "method" | "installments" | "amount" | "fee" | "paidAt">) =>
  Receivable.schedule(availableAtOnce, {
    method: invoice.method,
    installments: invoice.installments,
    amount: invoice.amount,
    fee: Cents.make(invoice.fee.estimatedFee),
    paidAt: invoice.paidAt ?? at(0)
  })

/** An invoice paid at its creation, with the ledger entries and receivables of its payment. */
export const paidInvoice = (company: Company.Company, amount = 10_000) => {
  const invoice = draft(company, { amount: Cents.make(amount), status: "paid", paidAt: at(0) })
  return anInvoice(company, invoice, paidNow(invoice))
}

/** Locks the company, then the invoice, in the order every move takes them. */
export const lockForMove = (company: Company.Company, invoice: Invoice.Invoice) =>
  Effect.gen(function* () {
    const invoices = yield* InvoiceRepository
    yield* invoices.lockCompanyLedger(company.id)
    return Option.getOrThrow(yield* invoices.lock(company.id, invoice.mode, byId(invoice)))
  })

/** `card`, as a card payment associates it with a client of `company` at `now`. */
export const cardToAssociate = (company: Company.Company, clientId: Invoice.ClientId, now: Timestamp.Timestamp) => ({
  companyId: company.id,
  clientId,
  brand: card.brand,
  firstDigits: card.firstDigits,
  lastDigits: card.lastDigits,
  expirationMonth: card.expirationMonth,
  expirationYear: card.expirationYear,
  now
})

/** Locks a card invoice for a move (`lockForMove`), and associates `card` with its client at `now`. */
export const lockForCardMove = (company: Company.Company, invoice: Invoice.Invoice, now: Timestamp.Timestamp) =>
  Effect.gen(function* () {
    const locked = yield* lockForMove(company, invoice)
    const clients = yield* ClientRepository
    const cardAssociate = yield* clients.associateCard(cardToAssociate(company, locked.client.id, now))
    return { locked, cardAssociate }
  })

export interface EndpointOptions {
  readonly url?: string
  readonly events?: ReadonlyArray<WebhookEndpoint.EventPattern>
  readonly mode?: Invoice.Mode
  readonly createdAt?: Timestamp.Timestamp
}

/** Subscribes a webhook endpoint of `company` (SPEC 13.5); returns it. */
export const anEndpoint = (company: Company.Company, options: EndpointOptions = {}) =>
  Effect.gen(function* () {
    const endpoints = yield* WebhookEndpointRepository
    const endpoint: Endpoint = {
      id: `we_${randomUUID()}`,
      companyId: company.id,
      mode: options.mode ?? "test",
      url: options.url ?? `https://hooks.example/${randomUUID()}`,
      events: options.events ?? ["*"],
      createdAt: options.createdAt ?? at(0)
    }
    expect(yield* endpoints.add(endpoint, WebhookEndpoint.maxPerCompanyAndMode)).toBe(true)
    return endpoint
  })
