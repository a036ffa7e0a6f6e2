// Finding and listing the caller's invoices (SPEC 4.2), and finding one from the payer's side, for its payment and
// the hosted checkout page (SPEC 4.7, 11.3).
import type { Invoice } from "@fatura/domain"
import { Effect, Option } from "effect"
import type { PayerView } from "../cards/PayerCardPayment.js"
import { CompanyRepository, companyOf } from "../companies/CompanyRepository.js"
import type { Principal } from "../companies/Principal.js"
import * as Clock from "../platform/Clock.js"
import { InvoiceNotFound, type StorageUnavailable, UnknownCursor } from "../platform/Failures.js"
import { publicTokenCandidate } from "../platform/Secrets.js"
import type { InvoicePage, InvoiceView, ListQuery } from "./InvoiceInput.js"
import { parseReference, parseSecureId, sameSecret } from "./InvoiceReference.js"
import { InvoiceRepository } from "./InvoiceRepository.js"

/** What `Invoices` answers of the invoices there are. */
export interface Queries {
  readonly find: (
    principal: Principal,
    reference: string
  ) => Effect.Effect<InvoiceView, InvoiceNotFound | StorageUnavailable>
  readonly list: (
    principal: Principal,
    query: ListQuery
  ) => Effect.Effect<InvoicePage, UnknownCursor | StorageUnavailable>
  /** The invoice a payer holds the checkout token of, with its company; any other token finds nothing. */
  readonly findForPayer: (
    secureId: string,
    token: string
  ) => Effect.Effect<PayerView, InvoiceNotFound | StorageUnavailable>
  /** What the hosted checkout page shows: the invoice, its company and the company's public token. */
  readonly checkout: (
    secureId: string,
    token: string
  ) => Effect.Effect<PayerView & { readonly publicToken: string }, InvoiceNotFound | StorageUnavailable>
}

export const make = Effect.gen(function* () {
  const invoices = yield* InvoiceRepository
  const companies = yield* CompanyRepository

  const find = Effect.fnUntraced(function* (principal: Principal, raw: string) {
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

  const findForPayer = Effect.fnUntraced(function* (raw: string, token: string) {
    const secureId = parseSecureId(raw)
    if (Option.isNone(secureId)) return yield* new InvoiceNotFound({ reference: raw })
    const found = yield* invoices.findBySecureId(secureId.value)
    if (Option.isNone(found) || !sameSecret(found.value.tokenCheckout, token)) {
      return yield* new InvoiceNotFound({ reference: raw })
    }
    const company = yield* companyOf(companies.findById(found.value.companyId), found.value.companyId)
    return { invoice: found.value, company }
  })

  const checkout = Effect.fnUntraced(function* (secureId: string, token: string) {
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

  const queries: Queries = { find, findForPayer, checkout, list }
  return queries
})
