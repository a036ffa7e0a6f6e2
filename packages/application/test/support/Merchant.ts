// What the use-case tests share: a clock set to a working day, a registered company acting through its key, and
// create requests of each method as the HTTP edge hands them to the use case.
import type { Invoice, Timestamp } from "@fatura/domain"
import { Effect, type Layer } from "effect"
import { TestClock } from "effect/testing"
import type { CardInput } from "../../src/cards/CardPayment.js"
import { ApiKeys } from "../../src/companies/ApiKeys.js"
import { Authentication } from "../../src/companies/Authentication.js"
import { Companies, type Registration } from "../../src/companies/Companies.js"
import type { Principal } from "../../src/companies/Principal.js"
import type { CreateInvoiceInput, ListQuery } from "../../src/invoices/InvoiceInput.js"
import { Postbacks } from "../../src/postbacks/Postbacks.js"
import * as TestApplication from "../../src/testing/TestApplication.js"

/** 2026-03-10 12:00 in São Paulo: a Tuesday, far from a month's end. */
export const start = Date.parse("2026-03-10T15:00:00.000Z")

export const startClock = TestClock.setTime(start)

/** Runs a test over a new in-memory application, from `start`. */
export const provided = <A, E>(test: Effect.Effect<A, E, Layer.Success<typeof TestApplication.layer>>) =>
  Effect.provide(startClock.pipe(Effect.andThen(test)), TestApplication.layer)

export const timestamp = (iso: string) => iso.replace("Z", "000Z") as Timestamp.Timestamp

/** A new company, and its test key as the HTTP edge authenticates it. */
export const registerMerchant = (registration: Partial<Registration> = {}) =>
  Effect.gen(function* () {
    const company = yield* (yield* Companies).register({
      cnpj: "11222333000181",
      name: "Loja Exemplo Ltda",
      email: "loja@example.com",
      ...registration
    })
    const principal = yield* (yield* Authentication).authenticate(company.secretKey)
    return { ...company, principal }
  })

/** The company's principal in live mode, with a live key issued for it. */
export const liveMode = (principal: Principal) =>
  Effect.gen(function* () {
    const issued = yield* (yield* ApiKeys).create(principal.companyId, "live")
    return yield* (yield* Authentication).authenticate(issued.secretKey)
  })

const baseRequest = {
  items: null,
  tangible: false,
  payer: {
    name: "Maria Souza",
    document: { type: "cpf", number: "52998224725" },
    email: "maria@example.com",
    phone: null,
    address: { zip: null, line: null, number: null, complement: null, city: null, state: null }
  },
  ip: null,
  postbackUrl: null,
  externalRef: null,
  metadata: null,
  expiresIn: null,
  dueDate: null,
  card: null
} as const

export const pixRequest = (overrides: Partial<CreateInvoiceInput> = {}): CreateInvoiceInput => ({
  ...baseRequest,
  method: "pix",
  totalPriceCents: 10_000,
  ...overrides
})

export const boletoRequest = (overrides: Partial<CreateInvoiceInput> = {}): CreateInvoiceInput => ({
  ...baseRequest,
  method: "bank_slip",
  totalPriceCents: 10_000,
  ...overrides
})

/** An approved card (any number but the contract's test cards is approved). */
export const approvedCard: CardInput = {
  token: null,
  installment: null,
  number: "4111111111111111",
  firstName: "Maria",
  lastName: "Souza",
  month: "12",
  year: "2030",
  securityCode: "123",
  cavv: null,
  eci: null,
  version: null
}

export const cardRequest = (
  card: Partial<CardInput> | null = {},
  overrides: Partial<CreateInvoiceInput> = {}
): CreateInvoiceInput => ({
  ...baseRequest,
  method: "credit_card",
  totalPriceCents: 10_000,
  card: card === null ? null : { ...approvedCard, ...card },
  ...overrides
})

/** The ledger of an invoice as [type, direction, amount]. */
export const ledger = (invoice: Invoice.Invoice) =>
  invoice.movements.map((entry) => [entry.type, entry.direction, entry.amount] as const)

/** The ledger of an invoice as [type, direction, amount, bucket]: with where each entry's money is. */
export const buckets = (invoice: Invoice.Invoice) =>
  invoice.movements.map((entry) => [entry.type, entry.direction, entry.amount, entry.bucket] as const)

/** The types of the invoice's events, in the order they were recorded. */
export const eventTypes = (principal: Principal, invoice: string) =>
  Effect.gen(function* () {
    const page = yield* (yield* Postbacks).events(principal, { limit: 100, startingAfter: null, type: null, invoice })
    return page.events.map((event) => event.type).reverse()
  })

/** Every invoice of the caller, in one page. */
export const listAll: ListQuery = {
  limit: 100,
  startingAfter: null,
  status: null,
  method: null,
  createdGte: null,
  createdLte: null,
  externalRef: null
}
