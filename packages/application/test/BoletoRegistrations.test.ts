// What a bank's answers do to a boleto's invoice (SPEC 15.1), over the in-memory ports and a stand-in bank that leaves
// its slips pending: queued with the invoice; registered; rejected (the invoice expires); paid at the bank through the
// same move as every payment, another amount said in the timeline and the event; written off. Each once.
import { describe, expect, it } from "@effect/vitest"
import { BusinessCalendar, Cents, type Invoice } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { BoletoRegistrationRepository } from "../src/boletos/BoletoRegistrationRepository.js"
import { BoletoRegistrations } from "../src/boletos/BoletoRegistrations.js"
import type { Principal } from "../src/companies/Principal.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { Postbacks } from "../src/postbacks/Postbacks.js"
import { Receivables } from "../src/receivables/Receivables.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import * as TestBoletoIssuer from "../src/testing/TestBoletoIssuer.js"
import { boletoRequest, registerMerchant, startClock } from "./support/Merchant.js"

const withBank = <A, E>(test: Effect.Effect<A, E, Layer.Success<typeof TestApplication.layer>>) =>
  Effect.provide(
    startClock.pipe(Effect.andThen(test)),
    TestApplication.withProviders(Layer.mergeAll(TestApplication.providers, TestBoletoIssuer.registering))
  )

const aBoleto = (principal: Principal, amount = 10_000) =>
  Effect.gen(function* () {
    const { invoice } = yield* (yield* Invoices).create(principal, boletoRequest({ totalPriceCents: amount }))
    return invoice
  })

const current = (principal: Principal, invoice: Invoice.Invoice) =>
  Effect.map(
    Effect.flatMap(Invoices, (invoices) => invoices.find(principal, invoice.secureId)),
    (view) => view.invoice
  )

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

describe("BoletoRegistrations", () => {
  it.effect("queues a new boleto's registration, pending; a registered answer registers it once", () =>
    withBank(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoice = yield* aBoleto(principal)
        expect(invoice.boleto?.registration).toBe("pending")
        expect((yield* (yield* BoletoRegistrationRepository).queued(10)).map((queued) => queued.id)).toEqual([
          invoice.id
        ])
        const registrations = yield* BoletoRegistrations
        const ourNumber = invoice.boleto!.ourNumber
        expect(yield* registrations.registered(ourNumber)).toBe("applied")
        expect(yield* registrations.registered(ourNumber)).toBe("unchanged")
        expect((yield* current(principal, invoice)).boleto?.registration).toBe("registered")
        expect(yield* eventsOf(principal, invoice)).toEqual([
          ["invoice.created", null],
          ["invoice.boleto_registered", null]
        ])
        expect(yield* registrations.registered("424242")).toBe("unknown")
      })
    )
  )

  it.effect("expires the invoice of a rejected boleto, saying the bank's reasons", () =>
    withBank(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoice = yield* aBoleto(principal)
        const registrations = yield* BoletoRegistrations
        expect(yield* registrations.rejected(invoice.boleto!.ourNumber, "48 CEP Inválido")).toBe("applied")
        expect(yield* registrations.rejected(invoice.boleto!.ourNumber, "48 CEP Inválido")).toBe("unchanged")
        const now = yield* current(principal, invoice)
        expect([now.status, now.boleto?.registration]).toEqual(["expired", "rejected"])
        expect(yield* eventsOf(principal, invoice)).toEqual([
          ["invoice.created", null],
          ["invoice.boleto_rejected", "the bank rejected the boleto: 48 CEP Inválido"],
          ["invoice.expired", null]
        ])
      })
    )
  )

  it.effect("pays the invoice of a boleto paid at the bank once, saying so when the amount differs", () =>
    withBank(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const registrations = yield* BoletoRegistrations
        const exact = yield* aBoleto(principal, 10_000)
        const short = yield* aBoleto(principal, 20_000)
        for (const invoice of [exact, short]) yield* registrations.registered(invoice.boleto!.ourNumber)
        const creditedOn = BusinessCalendar.plusDays(BusinessCalendar.saoPauloDate(exact.createdAt), 2)
        expect(yield* registrations.paidAtBank(exact.boleto!.ourNumber, Cents.make(10_000), creditedOn)).toBe("applied")
        expect(yield* registrations.paidAtBank(exact.boleto!.ourNumber, Cents.make(10_000), null)).toBe("unchanged")
        expect(yield* registrations.paidAtBank(short.boleto!.ourNumber, Cents.make(19_500), null)).toBe("applied")
        const paidExact = yield* current(principal, exact)
        const paidShort = yield* current(principal, short)
        expect([paidExact.status, paidExact.timeline.at(-1)?.detail]).toEqual(["paid", null])
        expect([paidShort.status, paidShort.timeline.at(-1)?.detail]).toEqual([
          "paid",
          "paid at the bank: R$ 195,00 for a boleto of R$ 200,00"
        ])
        expect((yield* eventsOf(principal, short)).at(-1)).toEqual([
          "invoice.paid",
          "paid at the bank: R$ 195,00 for a boleto of R$ 200,00"
        ])
        // Available on the day the bank credits it, as its retorno says.
        const page = yield* (yield* Receivables).list(principal, {
          limit: 10,
          startingAfter: null,
          status: null,
          invoice: exact.secureId,
          paymentDateGte: null,
          paymentDateLte: null
        })
        expect(page.receivables.map((receivable) => receivable.paymentDate)).toEqual([creditedOn])
        // What the bank received, less the boleto's fee: the books hold the money that came in.
        expect(paidShort.movements.map((entry) => [entry.type, entry.amount])).toEqual([
          ["payment", 19_500],
          ["fee", 349]
        ])
        // Written off after it was paid: nothing moves.
        expect(yield* registrations.writtenOff(exact.boleto!.ourNumber)).toBe("unchanged")
      })
    )
  )

  it.effect("expires a pending boleto the bank writes off, and pays nothing of one paid after it expired", () =>
    withBank(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const registrations = yield* BoletoRegistrations
        const invoice = yield* aBoleto(principal)
        yield* registrations.registered(invoice.boleto!.ourNumber)
        expect(yield* registrations.writtenOff(invoice.boleto!.ourNumber)).toBe("applied")
        expect((yield* current(principal, invoice)).status).toBe("expired")
        yield* TestClock.adjust("1 hour")
        expect(yield* registrations.paidAtBank(invoice.boleto!.ourNumber, Cents.make(10_000), null)).toBe("unchanged")
        expect((yield* current(principal, invoice)).status).toBe("expired")
        expect((yield* eventsOf(principal, invoice)).at(-1)).toEqual([
          "invoice.payment_rejected",
          "the bank received R$ 100,00 for the boleto, and the invoice is expired: it was not paid by it"
        ])
        expect(Option.isNone(yield* (yield* BoletoRegistrationRepository).findByOurNumber("1"))).toBe(true)
      })
    )
  )
})
