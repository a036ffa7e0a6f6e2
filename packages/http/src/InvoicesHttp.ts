// Handlers of the Invoices group: wire request → use case → Invoice transaction.
import { Caller, type CreateInvoiceRequest, FaturaApi } from "@fatura/api"
import { type CardInput, type CreateInvoiceInput, InvoiceLifecycle, Invoices } from "@fatura/application"
import { Document, InvoiceTransaction, Timestamp } from "@fatura/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toResponse } from "./FailureResponses.js"
import { invoiceResponse } from "./InvoiceResponse.js"
import * as RoutePolicy from "./RoutePolicy.js"

const digits = (value: string) => value.replace(/\D/g, "")

/** The card of a request, in the use case's words. */
export const toCardInput = (card: CreateInvoiceRequest["card"] & {}): CardInput => ({
  token: card.token ?? null,
  installment: card.installment ?? null,
  number: card.number ?? null,
  firstName: card.first_name ?? null,
  lastName: card.last_name ?? null,
  month: card.month ?? null,
  year: card.year ?? null,
  securityCode: card.security_code ?? null,
  cavv: card.cavv ?? null,
  eci: card.eci ?? null,
  version: card.version ?? null
})

/**
 * The contract's decode checked every format, the document's check digits included; this only converts what it
 * checked into the use case's words (the document's parts, the digits of a phone or zip), checking nothing again.
 */
export const toCreateInput = (request: CreateInvoiceRequest): CreateInvoiceInput => {
  const payer = request.payer
  return {
    method: request.method,
    totalPriceCents: request.total_price_cents,
    items:
      request.items?.map((item) => ({
        name: item.name,
        description: item.description ?? null,
        quantity: item.quantity,
        unitPrice: item.unit_price
      })) ?? null,
    tangible: request.product_fisical !== undefined && /^(true|1)$/i.test(request.product_fisical),
    payer: {
      name: payer.name,
      document: Document.ofAccepted(payer.cpf_cnpj),
      email: payer.email,
      phone: payer.phone === undefined ? null : digits(payer.phone),
      address: {
        zip: payer.address_zip === undefined ? null : digits(payer.address_zip),
        line: payer.address_line ?? null,
        number: payer.address_number ?? null,
        complement: payer.address_complement ?? null,
        city: payer.address_city ?? null,
        state: payer.address_state?.toUpperCase() ?? null
      }
    },
    ip: request.ip_payer ?? null,
    postbackUrl: request.postback_url === undefined || request.postback_url === "" ? null : request.postback_url,
    externalRef: request.external_ref ?? null,
    metadata: request.metadata ?? null,
    expiresIn: request.expires_in ?? null,
    dueDate: request.due_date ?? null,
    card: request.card === undefined ? null : toCardInput(request.card)
  }
}

/** What each route of the group lets through (`RouteAccess`). */
export const policies: RoutePolicy.OfGroup<"invoices"> = {
  // Creating an invoice calls its method's provider; a refund of a pix paid through a provider is returned through it.
  create: { access: "secretKey", callsProviders: true },
  list: RoutePolicy.secretKey,
  refund: { access: "secretKey", callsProviders: true },
  search: RoutePolicy.secretKey
}

export const layer = HttpApiBuilder.group(
  FaturaApi,
  "invoices",
  Effect.fn(function* (handlers) {
    const invoices = yield* Invoices
    const lifecycle = yield* InvoiceLifecycle
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const caller = yield* Caller
          return invoiceResponse(
            yield* invoices.create(caller, toCreateInput(payload)).pipe(Effect.mapError(toResponse)),
            201
          )
        })
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const page = yield* invoices.list(yield* Caller, {
            limit: query.limit ?? 20,
            startingAfter: query.starting_after ?? null,
            status: query.status ?? null,
            method: query.payment_method ?? null,
            createdGte: query.created_gte === undefined ? null : Timestamp.fromDateTime(query.created_gte),
            createdLte: query.created_lte === undefined ? null : Timestamp.fromDateTime(query.created_lte),
            externalRef: query.external_ref ?? null
          })
          const last = page.invoices.at(-1)
          return {
            data: page.invoices.map((invoice) => InvoiceTransaction.render(invoice, page.company, page.totals)),
            has_more: page.hasMore,
            next_cursor: page.hasMore && last !== undefined ? last.secureId : null
          }
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("refund", ({ payload }) =>
        Effect.gen(function* () {
          const view = yield* lifecycle
            .refund(yield* Caller, String(payload.id), payload.amount ?? null, payload.reason ?? null)
            .pipe(Effect.mapError(toResponse))
          return invoiceResponse(view, 201)
        })
      )
      .handle("search", ({ query }) =>
        Effect.gen(function* () {
          return invoiceResponse(yield* invoices.find(yield* Caller, query.id), 200)
        }).pipe(Effect.mapError(toResponse))
      )
  })
)
