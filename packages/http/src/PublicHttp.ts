// Handlers of the payer's side: the boleto PDF behind the invoice's checkout token.
import { FaturaApi, NotFound, PublicCaller } from "@fatura/api"
import { CardTokens, Invoices } from "@fatura/application"
import { Company, Document, type Invoice, InvoiceTransaction } from "@fatura/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import * as BoletoPdf from "./BoletoPdf.js"
import { toResponse } from "./FailureResponses.js"
import { toCardInput } from "./InvoicesHttp.js"
import type * as RoutePolicy from "./RoutePolicy.js"

/** An invoice as its payer sees it (SPEC 5.5). */
const toPublicInvoice = (invoice: Invoice.Invoice, company: Company.Company) => {
  const rendered = InvoiceTransaction.render(invoice, company, Company.zeroTotals)
  return {
    secureId: invoice.secureId,
    status: invoice.status,
    amount: invoice.amount,
    paymentMethod: invoice.method,
    installments: invoice.installments,
    createdAt: invoice.createdAt,
    paidAt: invoice.paidAt,
    items: rendered.items,
    // A hybrid boleto's pix charge is shown with its boleto: `pix` is a pix invoice's.
    pix:
      invoice.method !== "pix" || invoice.pix === null
        ? { qrCode: "" }
        : { qrCode: invoice.pix.qrCode, expiresAt: invoice.pix.expiresAt },
    boleto: rendered.boleto,
    enterprise: { fantasy_name: company.fantasyName },
    customer: { name: invoice.payer.name },
    refusedReason: invoice.refusedReason
  }
}

const zip = (digits: string) => (digits.length === 8 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits)

/** What each route of the group lets through (`RouteAccess`). */
export const policies: RoutePolicy.OfGroup<"public"> = {
  invoice: { access: "checkoutToken", callsProviders: false },
  // Tokenizing a card and paying with one call the card acquirer.
  tokenizeCard: { access: "publicToken", callsProviders: true },
  pay: { access: "checkoutToken", callsProviders: true },
  boletoPdf: { access: "checkoutToken", callsProviders: false }
}

export const layer = HttpApiBuilder.group(
  FaturaApi,
  "public",
  Effect.fn(function* (handlers) {
    const invoices = yield* Invoices
    const cardTokens = yield* CardTokens
    return handlers
      .handle("invoice", ({ params, query }) =>
        invoices.findForPayer(params.secureId, query.token ?? "").pipe(
          Effect.map(({ invoice, company }) => toPublicInvoice(invoice, company)),
          Effect.mapError(toResponse)
        )
      )
      .handle("tokenizeCard", ({ payload }) =>
        Effect.gen(function* () {
          const issued = yield* cardTokens
            .tokenize(yield* PublicCaller, {
              number: payload.number,
              firstName: payload.first_name,
              lastName: payload.last_name,
              month: payload.month,
              year: payload.year,
              securityCode: payload.security_code
            })
            .pipe(Effect.mapError(toResponse))
          return {
            token: issued.token,
            brand: issued.brand,
            first_digits: issued.firstDigits,
            last_digits: issued.lastDigits,
            expiration_month: issued.expirationMonth,
            expiration_year: issued.expirationYear
          }
        })
      )
      .handle("pay", ({ params, query, payload }) =>
        Effect.gen(function* () {
          const { invoice, company } = yield* invoices
            .payForPayer(params.secureId, query.token ?? "", toCardInput(payload.card))
            .pipe(Effect.mapError(toResponse))
          return toPublicInvoice(invoice, company)
        })
      )
      .handle("boletoPdf", ({ params, query }) =>
        Effect.gen(function* () {
          const { invoice, company } = yield* invoices.findForPayer(params.secureId, query.token ?? "")
          const boleto = invoice.boleto
          if (boleto === null) return yield* new NotFound({ message: "this invoice has no bank slip" })
          const address = invoice.payer.address
          return yield* Effect.promise(() =>
            BoletoPdf.render({
              payee: { name: company.corporateReason, document: Document.formatCnpj(company.cnpj) },
              payer: {
                name: invoice.payer.name,
                document: Document.format(invoice.payer.document),
                address: [
                  [address.line, address.number, address.complement].filter((part) => part !== null).join(", "),
                  [address.city, address.state].filter((part) => part !== null).join("/"),
                  address.zip === null ? null : `CEP ${zip(address.zip)}`
                ]
                  .filter((part) => part !== null && part !== "")
                  .join(" — ")
              },
              amount: invoice.amount,
              dueDate: boleto.dueDate,
              bankCode: boleto.bankCode,
              ourNumber: boleto.ourNumber,
              barcode: boleto.barcode,
              digitableLine: boleto.digitableLine,
              documentNumber: String(invoice.id),
              issuedAt: invoice.createdAt.slice(0, 10),
              registration: boleto.registration,
              pixQrCode: invoice.pix?.qrCode ?? null
            })
          )
        }).pipe(Effect.mapError((failure) => (failure._tag === "NotFound" ? failure : toResponse(failure))))
      )
  })
)
