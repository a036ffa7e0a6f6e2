// Use cases of invoices: creating one (SPEC 4.1) and finding one of the caller's (SPEC 4.2).
import {
  type Cents,
  Company,
  type Document,
  FeePlan,
  Invoice,
  InvoiceStatus,
  InvoiceTransaction,
  type PaymentMethod,
  Timestamp
} from "@fatura/domain"
import { Context, Effect, Layer, Option } from "effect"
import * as Clock from "./Clock.js"
import { CompanyRepository } from "./CompanyRepository.js"
import { CompanyBlocked, InvoiceNotFound, MethodNotSupported, type StorageUnavailable } from "./Failures.js"
import { type InvoiceReference, InvoiceRepository } from "./InvoiceRepository.js"
import { PixProvider } from "./PixProvider.js"
import type { Principal } from "./Principal.js"
import { randomBase62, randomUrlToken, randomUuid } from "./Secrets.js"
import { Transactions } from "./Transactions.js"

export interface ItemInput {
  readonly name: string
  readonly description: string | null
  readonly quantity: number
  readonly unitPrice: number
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
}

export interface InvoiceView {
  readonly invoice: Invoice.Invoice
  readonly company: Company.Company
  readonly totals: Company.CompanyTotals
}

export type CreateInvoiceFailure =
  | CompanyBlocked
  | MethodNotSupported
  | Invoice.AmountOutOfRange
  | Invoice.TotalMismatch
  | StorageUnavailable

export const defaultPixExpiresIn = 86_400

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** Reads the `id` the merchant sent: a secureId, or the numeric id. Anything else names no invoice. */
export const parseReference = (raw: string): Option.Option<InvoiceReference> => {
  const text = raw.trim()
  if (/^[1-9][0-9]{0,14}$/.test(text)) return Option.some({ _tag: "Id", id: Number(text) as Invoice.InvoiceId })
  const lower = text.toLowerCase()
  if (uuidPattern.test(lower)) return Option.some({ _tag: "SecureId", secureId: lower as Invoice.SecureId })
  return Option.none()
}

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
  }
>()("@fatura/application/Invoices") {
  static readonly layer = Layer.effect(
    Invoices,
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const pix = yield* PixProvider

      const create = Effect.fn("Invoices.create")(function* (principal: Principal, input: CreateInvoiceInput) {
        const company = principal.company
        const block = Company.creationBlock(company.blocks, input.method)
        if (block !== undefined) return yield* new CompanyBlocked({ block })
        if (input.method !== "pix") return yield* new MethodNotSupported({ method: input.method })

        const amount = yield* Effect.fromResult(Invoice.checkAmount(input.totalPriceCents))
        const items: ReadonlyArray<Invoice.InvoiceItem> =
          input.items === null
            ? [{ title: "Invoice", description: null, quantity: 1, unitPrice: amount, tangible: input.tangible }]
            : input.items.map((item) => ({
                title: item.name,
                description: item.description,
                quantity: item.quantity,
                unitPrice: item.unitPrice as Cents.Cents,
                tangible: input.tangible
              }))
        if (input.items !== null) yield* Effect.fromResult(Invoice.checkItemsTotal(items, amount))

        const now = yield* Clock.now
        const installments = 1
        const txid = randomBase62(25)
        const expiresAt = Timestamp.plusSeconds(now, input.expiresIn ?? defaultPixExpiresIn)
        const charge = yield* pix.charge({ company, amount, txid, expiresAt })

        const draft: Omit<Invoice.Invoice, "id" | "client" | "timeline"> = {
          secureId: randomUuid(),
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
          tokenCheckout: randomUrlToken(),
          fee: FeePlan.split(company.feePlan, input.method, installments, amount),
          pix: { qrCode: charge.qrCode, txid, expiresAt }
        }

        return yield* transactions.withTransaction(
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
            const invoice = yield* invoices.insert(draft, client, {
              status: "pending",
              event: InvoiceStatus.eventType("pending")
            })
            const totals = yield* companies.totals(company.id, principal.mode, now)
            yield* invoices.recordEvent({
              id: `evt_${randomUuid()}`,
              companyId: company.id,
              invoiceId: invoice.id,
              type: InvoiceStatus.eventType("pending"),
              livemode: principal.mode === "live",
              data: InvoiceTransaction.render(invoice, company, totals),
              createdAt: now
            })
            return { invoice, company, totals }
          })
        )
      })

      const find = Effect.fn("Invoices.find")(function* (principal: Principal, raw: string) {
        const reference = parseReference(raw)
        if (Option.isNone(reference)) return yield* new InvoiceNotFound({ reference: raw })
        const found = yield* invoices.find(principal.company.id, principal.mode, reference.value)
        if (Option.isNone(found)) return yield* new InvoiceNotFound({ reference: raw })
        const totals = yield* companies.totals(principal.company.id, principal.mode, yield* Clock.now)
        return { invoice: found.value, company: principal.company, totals }
      })

      return Invoices.of({ create, find })
    })
  )
}
