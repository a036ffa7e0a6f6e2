// Use cases of invoices: creating one of any method (SPEC 4.1, 6), finding and listing the caller's (SPEC 4.2), and
// the payer's side of one (SPEC 4.7, 11.3). A page of modules: the create (InvoiceCreation), which reads resume →
// company → draft → the method's module → stored; the queries (InvoiceQueries); the payer's card payment
// (PayerCardPayment).
import { Context, Effect, Layer } from "effect"
import * as PayerCardPayment from "../cards/PayerCardPayment.js"
import type { Principal } from "../companies/Principal.js"
import type { InvoiceNotFound, StorageUnavailable, UnknownCursor } from "../platform/Failures.js"
import * as InvoiceCreation from "./InvoiceCreation.js"
import type { CreateInvoiceFailure, CreateInvoiceInput, InvoicePage, InvoiceView, ListQuery } from "./InvoiceInput.js"
import * as InvoiceQueries from "./InvoiceQueries.js"

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
    readonly payForPayer: PayerCardPayment.PayForPayer
    /** The invoice a payer holds the checkout token of; any other token finds nothing. */
    readonly findForPayer: (
      secureId: string,
      token: string
    ) => Effect.Effect<PayerCardPayment.PayerView, InvoiceNotFound | StorageUnavailable>
    /** What the hosted checkout page shows (SPEC 11.3): the invoice, its company and the company's public token. */
    readonly checkout: (
      secureId: string,
      token: string
    ) => Effect.Effect<
      PayerCardPayment.PayerView & { readonly publicToken: string },
      InvoiceNotFound | StorageUnavailable
    >
  }
>()("@fatura/application/Invoices") {
  static readonly layer = Layer.effect(
    Invoices,
    Effect.gen(function* () {
      const create = yield* InvoiceCreation.make
      const { find, list, findForPayer, checkout } = yield* InvoiceQueries.make
      const payForPayer = yield* PayerCardPayment.make(findForPayer)

      return Invoices.of({ create, find, list, findForPayer, payForPayer, checkout })
    })
  )
}
