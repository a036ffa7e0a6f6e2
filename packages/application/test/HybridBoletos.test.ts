// Hybrid boletos (SPEC 15.1), over the in-memory ports, a stand-in bank that leaves its slips pending and a stand-in PSP
// that makes charges with a due date: each boleto is also a pix charge of its amount, payable until the day it falls
// due; paid by its pix, the invoice is paid once and the boleto withdrawn from the bank (never sent when it had not
// been, written off when it had); paid at the bank, its charge is removed at the PSP, once; whichever comes second pays
// nothing.
import { describe, expect, it } from "@effect/vitest"
import { Cents, type Invoice, InvoiceTransaction } from "@fatura/domain"
import { Effect, Layer } from "effect"
import { BoletoRegistrationRepository } from "../src/boletos/BoletoRegistrationRepository.js"
import { BoletoRegistrations } from "../src/boletos/BoletoRegistrations.js"
import type { Principal } from "../src/companies/Principal.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { PixProvider } from "../src/pix/PixProvider.js"
import { PixSettlements } from "../src/pix/PixSettlements.js"
import * as Clock from "../src/platform/Clock.js"
import { Postbacks } from "../src/postbacks/Postbacks.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import * as TestBoletoIssuer from "../src/testing/TestBoletoIssuer.js"
import * as TestPixProvider from "../src/testing/TestPixProvider.js"
import { boletoRequest, registerMerchant, startClock } from "./support/Merchant.js"

/** The application over a bank that registers from files and a PSP that makes charges with a due date. */
const hybrid = <A, E>(
  test: (
    psp: ReturnType<typeof TestPixProvider.make>,
    principal: Principal
  ) => Effect.Effect<A, E, Layer.Success<typeof TestApplication.layer>>,
  withDueCharges = true
) => {
  const psp = TestPixProvider.make({ withDueCharges })
  const providers = Layer.mergeAll(
    TestApplication.providers,
    TestBoletoIssuer.registering,
    Layer.succeed(PixProvider, psp.provider)
  )
  return Effect.gen(function* () {
    yield* startClock
    const { principal } = yield* registerMerchant()
    return yield* test(psp, principal)
  }).pipe(Effect.provide(TestApplication.withProviders(providers)))
}

const aBoleto = (principal: Principal, amount = 10_000) =>
  Effect.map(
    Effect.flatMap(Invoices, (invoices) => invoices.create(principal, boletoRequest({ totalPriceCents: amount }))),
    (view) => view.invoice
  )

const current = (principal: Principal, invoice: Invoice.Invoice) =>
  Effect.flatMap(Invoices, (invoices) => invoices.find(principal, invoice.secureId))

const eventsOf = (principal: Principal, invoice: Invoice.Invoice) =>
  Effect.gen(function* () {
    const page = yield* (yield* Postbacks).events(principal, {
      limit: 100,
      startingAfter: null,
      type: null,
      invoice: invoice.secureId
    })
    return page.events.map((event) => [event.type, event.reason ?? null] as const).reverse()
  })

/** A payer pays the boleto's charge at the PSP, and the PSP's notification of it arrives. */
const paidByPix = (psp: ReturnType<typeof TestPixProvider.make>, invoice: Invoice.Invoice) =>
  Effect.gen(function* () {
    const pix = yield* psp.pay(invoice.pix!.txid)
    yield* (yield* PixSettlements).notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
    return pix
  })

describe("hybrid boletos", () => {
  it.effect("make each boleto a pix charge of its amount, payable until it falls due, shown with the boleto", () =>
    hybrid((psp, principal) =>
      Effect.gen(function* () {
        const invoice = yield* aBoleto(principal, 12_345)
        expect(invoice.pix).toMatchObject({ txid: psp.provider.txidOf(invoice.secureId), endToEndId: null })
        expect(psp.psp.charges.get(invoice.pix!.txid)).toMatchObject({
          amount: 12_345,
          dueDate: invoice.boleto!.dueDate,
          removed: false
        })
        // Payable until the due date ends in São Paulo (UTC−3).
        expect(invoice.pix!.expiresAt).toBe(`${Clock.addDays(invoice.boleto!.dueDate, 1)}T03:00:00.000000Z`)
        const { company, totals } = yield* current(principal, invoice)
        const shown = InvoiceTransaction.render(invoice, company, totals)
        expect(shown.boleto?.pix_qr_code).toBe(invoice.pix!.qrCode)
        // `pix` and `qr_code_pix` stay a pix invoice's.
        expect(shown.pix).toEqual({ qrCode: "" })
        expect(shown.invoice.qr_code_pix).toBe("")
      })
    )
  )

  it.effect("stay boletos alone with a provider that makes no charges with a due date", () =>
    hybrid(
      (psp, principal) =>
        Effect.gen(function* () {
          const invoice = yield* aBoleto(principal)
          expect(invoice.pix).toBeNull()
          expect(psp.psp.calls).toEqual([])
          const { company, totals } = yield* current(principal, invoice)
          expect(InvoiceTransaction.render(invoice, company, totals).boleto?.pix_qr_code).toBeNull()
        }),
      false
    )
  )

  it.effect("paid by pix, pay the invoice once and withdraw the boleto: unsent never goes, sent is written off", () =>
    hybrid((psp, principal) =>
      Effect.gen(function* () {
        const registrations = yield* BoletoRegistrationRepository
        const sent = yield* aBoleto(principal)
        yield* registrations.assign([sent.id], "CB000001.REM", sent.createdAt)
        const unsent = yield* aBoleto(principal)
        for (const invoice of [sent, unsent]) {
          const pix = yield* paidByPix(psp, invoice)
          // Notified again: nothing more.
          yield* (yield* PixSettlements).notified([{ endToEndId: pix.endToEndId, returnIds: [] }])
          const paid = (yield* current(principal, invoice)).invoice
          expect([paid.status, paid.pix?.endToEndId]).toEqual(["paid", pix.endToEndId])
          expect(paid.timeline.at(-1)?.detail).toBe(`paid by pix (end-to-end id ${pix.endToEndId}), not at the bank`)
          expect((yield* eventsOf(principal, invoice)).map(([type]) => type)).toEqual([
            "invoice.created",
            "invoice.paid"
          ])
        }
        expect(yield* registrations.queued(10)).toEqual([])
        expect((yield* registrations.queuedWriteOffs(10)).map((invoice) => invoice.id)).toEqual([sent.id])
        yield* registrations.assignWriteOffs([sent.id], "CB000002.REM", sent.createdAt)
        expect(yield* registrations.queuedWriteOffs(10)).toEqual([])
        // The bank refuses the write-off's remessa whole: it goes in the next one.
        yield* registrations.release("CB000002.REM", sent.createdAt)
        expect((yield* registrations.queuedWriteOffs(10)).map((invoice) => invoice.id)).toEqual([sent.id])
        // Its charge was paid: nothing to remove.
        expect(yield* (yield* PixSettlements).sweepCharges).toBe(0)
      })
    )
  )

  it.effect("paid by pix and then at the bank, pay once: the bank's payment pays nothing, and says so once", () =>
    hybrid((psp, principal) =>
      Effect.gen(function* () {
        const boletos = yield* BoletoRegistrations
        const invoice = yield* aBoleto(principal)
        yield* boletos.registered(invoice.boleto!.ourNumber)
        const pix = yield* paidByPix(psp, invoice)
        expect(yield* boletos.paidAtBank(invoice.boleto!.ourNumber, Cents.make(10_000), null)).toBe("unchanged")
        expect(yield* boletos.paidAtBank(invoice.boleto!.ourNumber, Cents.make(10_000), null)).toBe("unchanged")
        const paid = (yield* current(principal, invoice)).invoice
        expect(paid.movements.map((entry) => [entry.type, entry.amount])).toEqual([
          ["payment", 10_000],
          ["fee", paid.fee.estimatedFee]
        ])
        expect((yield* eventsOf(principal, invoice)).slice(3)).toEqual([
          [
            "invoice.payment_rejected",
            `the bank received R$ 100,00 for the boleto, and the invoice is paid by pix (end-to-end id ` +
              `${pix.endToEndId}): it was not paid by it`
          ]
        ])
      })
    )
  )

  it.effect("paid or expired by the sandbox's helper, withdraw both the boleto and its charge", () =>
    hybrid((psp, principal) =>
      Effect.gen(function* () {
        const lifecycle = yield* InvoiceLifecycle
        const paid = yield* aBoleto(principal)
        const expired = yield* aBoleto(principal)
        yield* lifecycle.pay(principal, paid.secureId)
        yield* lifecycle.expire(principal, expired.secureId)
        expect(yield* (yield* BoletoRegistrationRepository).queued(10)).toEqual([])
        expect(yield* (yield* PixSettlements).sweepCharges).toBe(2)
        expect([paid, expired].map((invoice) => psp.psp.charges.get(invoice.pix!.txid)?.removed)).toEqual([true, true])
      })
    )
  )

  it.effect("paid at the bank, remove its charge once; a pix after that pays nothing and goes back", () =>
    hybrid((psp, principal) =>
      Effect.gen(function* () {
        const boletos = yield* BoletoRegistrations
        const settlements = yield* PixSettlements
        const atBank = yield* aBoleto(principal)
        const rejected = yield* aBoleto(principal, 20_000)
        yield* boletos.registered(atBank.boleto!.ourNumber)
        expect(yield* boletos.paidAtBank(atBank.boleto!.ourNumber, Cents.make(10_000), null)).toBe("applied")
        expect(yield* boletos.rejected(rejected.boleto!.ourNumber, "48 CEP Inválido")).toBe("applied")
        // A payer pays the charge before the sweep removes it: that pix pays nothing and goes back whole.
        const late = yield* psp.pay(atBank.pix!.txid)
        psp.psp.down = true
        expect(yield* settlements.sweepCharges).toBe(0)
        psp.psp.down = false
        // The PSP will not remove a paid charge: done with all the same; the other is removed.
        expect(yield* settlements.sweepCharges).toBe(2)
        expect(psp.psp.charges.get(rejected.pix!.txid)?.removed).toBe(true)
        const calls = psp.psp.calls.length
        expect(yield* settlements.sweepCharges).toBe(0)
        expect(psp.psp.calls.length).toBe(calls)
        yield* settlements.notified([{ endToEndId: late.endToEndId, returnIds: [] }])
        const paid = (yield* current(principal, atBank)).invoice
        expect([paid.status, paid.pix?.endToEndId]).toEqual(["paid", null])
        expect([...psp.psp.returns.values()].map(({ request }) => [request.endToEndId, request.amount])).toEqual([
          [late.endToEndId, 10_000]
        ])
      })
    )
  )
})
