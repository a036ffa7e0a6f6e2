// A stand-in PSP the pix tests drive, and what they read back of the application over it.
import { Effect, Layer, Logger } from "effect"
import { Companies } from "../../src/companies/Companies.js"
import type { Principal } from "../../src/companies/Principal.js"
import { Invoices } from "../../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../../src/moves/InvoiceLifecycle.js"
import { PixProvider } from "../../src/pix/PixProvider.js"
import { PixSettlements } from "../../src/pix/PixSettlements.js"
import { Postbacks } from "../../src/postbacks/Postbacks.js"
import * as TestApplication from "../../src/testing/TestApplication.js"
import * as TestPixProvider from "../../src/testing/TestPixProvider.js"
import { pixRequest, registerMerchant, startClock } from "./Merchant.js"

type Provider = PixProvider["Service"]

/** The application over a stand-in PSP the test drives; `answering` may change what the PSP answers. */
export const withPsp = (answering: (provider: Provider) => Provider = (provider) => provider) => {
  const psp = TestPixProvider.make()
  const provider = Layer.succeed(PixProvider, answering(psp.provider))
  const layer = TestApplication.withProviders(Layer.mergeAll(TestApplication.providers, provider))
  return { ...psp, layer }
}

type Psp = ReturnType<typeof withPsp>

/**
 * Runs `test` over a new application and a stand-in PSP (`withPsp(answering)`), from `start`, for a merchant
 * registered there.
 */
export const overPsp = <A, E>(
  test: (psp: Psp, principal: Principal) => Effect.Effect<A, E, Layer.Success<Psp["layer"]>>,
  answering?: (provider: Provider) => Provider
) => {
  const psp = withPsp(answering)
  return Effect.gen(function* () {
    yield* startClock
    const { principal } = yield* registerMerchant()
    return yield* test(psp, principal)
  }).pipe(Effect.provide(psp.layer))
}

export const balancePix = (principal: Principal) =>
  Effect.gen(function* () {
    const { totals } = yield* (yield* Companies).info(principal)
    return totals.balancePix
  })

/** A pix invoice, and the pix a payer paid it with at the PSP (another amount when given). */
export const paidAtPsp = (psp: Psp, principal: Principal, amount?: number) =>
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

/** A pix invoice paid at the PSP, and that pix notified: the invoice is paid. */
export const paidAndNotified = (psp: Psp, principal: Principal) =>
  Effect.gen(function* () {
    const paid = yield* paidAtPsp(psp, principal)
    yield* (yield* PixSettlements).notified([{ endToEndId: paid.pix.endToEndId, returnIds: [] }])
    return paid
  })

/** `paidAndNotified`, then `anotherSale`: a paid pix invoice to refund; `net` is the pix balance then. */
export const paidBesideAnotherSale = (psp: Psp, principal: Principal) =>
  Effect.gen(function* () {
    const paid = yield* paidAndNotified(psp, principal)
    yield* anotherSale(principal)
    return { ...paid, net: yield* balancePix(principal) }
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
