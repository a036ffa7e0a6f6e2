// How a pix invoice gets its charge: the company's key checked, the charge asked of the provider under the invoice's
// txid (outside any transaction, after the run records that it is about to ask, so that a retry asks for the same
// charge), and the QR code it answers. A boleto invoice gets, the same way, the charge with a due date that makes its
// slip hybrid, when the provider makes them (SPEC 15.1).
import { type Cents, type Company, type Document, Invoice, PixKey, Timestamp } from "@fatura/domain"
import { Effect } from "effect"
import { checkpoint } from "../invoices/RecoveryPoint.js"
import * as Clock from "../platform/Clock.js"
import { UnusablePixKey } from "../platform/Failures.js"
import { Transactions } from "../platform/Transactions.js"
import { PixProvider } from "./PixProvider.js"

export const defaultPixExpiresIn = 86_400

export interface PixChargeRequest {
  readonly company: Company.Company
  readonly secureId: Invoice.SecureId
  readonly amount: Cents.Cents
  /** Seconds until it expires; the default when none. */
  readonly expiresIn: number | null
  readonly now: Timestamp.Timestamp
  readonly payer: { readonly name: string; readonly document: Document.Document }
  readonly items: ReadonlyArray<Invoice.InvoiceItem>
}

export interface DueChargeRequest {
  readonly company: Company.Company
  readonly secureId: Invoice.SecureId
  readonly amount: Cents.Cents
  /** The boleto's due date (YYYY-MM-DD). */
  readonly dueDate: string
  readonly payer: { readonly name: string; readonly document: Document.Document }
  readonly items: ReadonlyArray<Invoice.InvoiceItem>
}

export const make = Effect.gen(function* () {
  const pix = yield* PixProvider
  const transactions = yield* Transactions

  const charge = Effect.fnUntraced(function* (request: PixChargeRequest) {
    // Keys are checked when they are set, but a company registered before that may hold one no BR Code can carry; a
    // key that is valid but was stored as typed is written in its canonical form.
    const { key: pixKey } = yield* Effect.fromResult(PixKey.parse(request.company.pixKey)).pipe(
      Effect.mapError((invalid) => new UnusablePixKey({ reason: invalid.reason }))
    )
    const txid = pix.txidOf(request.secureId)
    const expiresIn = request.expiresIn ?? defaultPixExpiresIn
    const expiresAt = Timestamp.plusSeconds(request.now, expiresIn)
    yield* checkpoint({ pixInvoice: request.secureId })
    const { qrCode } = yield* transactions.external(
      pix.charge({
        company: request.company,
        pixKey,
        amount: request.amount,
        txid,
        expiresAt,
        expiresIn,
        payer: request.payer,
        summary: Invoice.chargeSummary(request.items)
      })
    )
    return { qrCode, txid, expiresAt, endToEndId: null } satisfies Invoice.PixCharge
  })

  /** The charge with a due date beside a boleto: the same day, the same amount; none from a provider without them. */
  const dueCharge = Effect.fnUntraced(function* (request: DueChargeRequest) {
    if (pix.dueCharges === null) return null
    const txid = pix.txidOf(request.secureId)
    yield* checkpoint({ pixInvoice: request.secureId })
    const { qrCode } = yield* transactions.external(
      pix.dueCharges.charge({
        company: request.company,
        amount: request.amount,
        txid,
        dueDate: request.dueDate,
        payer: request.payer,
        summary: Invoice.chargeSummary(request.items)
      })
    )
    return {
      qrCode,
      txid,
      expiresAt: Clock.endOfBusinessDate(request.dueDate),
      endToEndId: null
    } satisfies Invoice.PixCharge
  })

  return { charge, dueCharge }
})
