// A stand-in PSP the pix tests drive, and what they read back of the application over it.
import { Effect, Layer, Logger } from "effect"
import { Companies } from "../../src/companies/Companies.js"
import type { Principal } from "../../src/companies/Principal.js"
import { Invoices } from "../../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../../src/moves/InvoiceLifecycle.js"
import { Postbacks } from "../../src/postbacks/Postbacks.js"
import * as TestApplication from "../../src/testing/TestApplication.js"
import * as TestPixProvider from "../../src/testing/TestPixProvider.js"
import { pixRequest } from "./Merchant.js"

/** The application over a stand-in PSP the test drives. */
export const withPsp = () => {
  const psp = TestPixProvider.make()
  const layer = TestApplication.withProviders(Layer.mergeAll(TestApplication.providers, psp.layer))
  return { ...psp, layer }
}

export const balancePix = (principal: Principal) =>
  Effect.gen(function* () {
    const { totals } = yield* (yield* Companies).info(principal)
    return totals.balancePix
  })

/** A pix invoice, and the pix a payer paid it with at the PSP (another amount when given). */
export const paidAtPsp = (psp: ReturnType<typeof withPsp>, principal: Principal, amount?: number) =>
  Effect.gen(function* () {
    const invoice = (yield* (yield* Invoices).create(principal, pixRequest())).invoice
    const pix = yield* psp.pay(invoice.pix!.txid, amount)
    return { invoice, pix }
  })

/** Another pix sale, paid by the sandbox helper: a balance that can pay a full refund back (fees are not returned). */
export const anotherSale = (principal: Principal) =>
  Effect.gen(function* () {
    const sale = (yield* (yield* Invoices).create(principal, pixRequest({ totalPriceCents: 50_000 }))).invoice
    yield* (yield* InvoiceLifecycle).pay(principal, sale.secureId)
  })

/** The reasons of the invoice's events of `type`, oldest first. */
export const reasonsOf = (
  principal: Principal,
  secureId: string,
  type: "invoice.refund_pending" | "invoice.refund_failed"
) =>
  Effect.gen(function* () {
    const { events } = yield* (yield* Postbacks).events(principal, {
      limit: 10,
      startingAfter: null,
      type,
      invoice: secureId
    })
    return events.map((event) => event.reason).reverse()
  })

/** The error lines logged while `effect` runs. */
export const errorsLogged = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
  const lines: Array<string> = []
  const logger = Logger.make(({ logLevel, message }) => {
    if (logLevel === "Error") lines.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
  })
  return Effect.map(Effect.provide(effect, Logger.layer([logger])), (value) => ({ value, lines }))
}

/** A forged end-to-end id: well formed, and no pix the PSP received. */
export const forged = (n: number) => `E99999999${String(n).padStart(23, "0")}`

export const find = (principal: Principal, secureId: string) =>
  Effect.gen(function* () {
    return (yield* (yield* Invoices).find(principal, secureId)).invoice
  })
