// The InvoiceRepository contract, as the invoice use cases rely on it: an invoice reads back as it was stored, by
// secureId or id, for its own company and mode only; lists are newest first and page by cursor without skips or
// repeats; every move writes its status, timeline entry, ledger entries and refund, and the running totals follow
// the ledger; the ledger is append-only; the expiry sweep finds what is due and locks only what is still pending.
import { expect } from "@effect/vitest"
import {
  CompanyRepository,
  InvoiceRepository,
  type ListFilter,
  type NewInvoice,
  Transactions
} from "@fatura/application"
import { Cents, type Company, type Invoice, Ledger, Timestamp } from "@fatura/domain"
import { Deferred, Effect, Exit, Fiber, Option } from "effect"
import { SqlClient } from "effect/sql"
import { aCompany, anInvoice, at, card, dateOf, draft, freshEra, payer } from "./support/Fixtures.js"
import { onEachDatabase } from "./support/TestDatabases.js"

const bySecureId = (invoice: Invoice.Invoice) => ({ _tag: "SecureId", secureId: invoice.secureId }) as const
const byId = (invoice: Invoice.Invoice) => ({ _tag: "Id", id: invoice.id }) as const

/** An invoice paid at its creation, with the ledger entries of its payment. */
const paidInvoice = (company: Company.Company, amount = 10_000) => {
  const invoice = draft(company, { amount: Cents.make(amount), status: "paid", paidAt: at(0) })
  return anInvoice(company, invoice, Ledger.onPaid("pix", invoice.amount, Cents.make(invoice.fee.estimatedFee)))
}

const filterOf = (company: Company.Company, changes: Partial<ListFilter> = {}): ListFilter => ({
  companyId: company.id,
  mode: "test",
  beforeId: null,
  status: null,
  method: null,
  createdGte: null,
  createdLte: null,
  externalRef: null,
  limit: 100,
  ...changes
})

const listedIds = (filter: ListFilter) =>
  Effect.gen(function* () {
    const invoices = yield* InvoiceRepository
    return (yield* invoices.list(filter)).map((invoice) => invoice.id)
  })

/** Locks the company, then the invoice, in the order every move takes them. */
const lockForMove = (company: Company.Company, invoice: Invoice.Invoice) =>
  Effect.gen(function* () {
    const invoices = yield* InvoiceRepository
    yield* invoices.lockCompanyLedger(company.id)
    return Option.getOrThrow(yield* invoices.lock(company.id, invoice.mode, byId(invoice)))
  })

onEachDatabase("InvoiceRepository", (it, database) => {
  it.effect("reads an invoice back as stored, with its timeline and ledger entries, by secureId and by id", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const company = yield* aCompany()
      const stored = yield* paidInvoice(company)

      expect(stored.timeline.map((entry) => [entry.status, entry.event, entry.createdAt])).toEqual([
        ["pending", "invoice.created", at(0)],
        ["paid", "invoice.paid", at(0)]
      ])
      expect(stored.movements.map((entry) => [entry.type, entry.direction, entry.amount, entry.balance])).toEqual([
        ["payment", "credit", 10_000, "pix"],
        ["fee", "debit", stored.fee.estimatedFee, "pix"]
      ])
      expect(Option.getOrThrow(yield* invoices.find(company.id, "test", bySecureId(stored)))).toEqual(stored)
      expect(Option.getOrThrow(yield* invoices.find(company.id, "test", byId(stored)))).toEqual(stored)
      expect(Option.getOrThrow(yield* invoices.findById(stored.id))).toEqual(stored)
      expect(Option.getOrThrow(yield* invoices.findBySecureId(stored.secureId))).toEqual(stored)
    })
  )

  it.effect("keeps the payment data of each method: pix charge, bank slip, metadata and items", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const company = yield* aCompany()
      const boleto = yield* anInvoice(company, {
        method: "bank_slip",
        metadata: null,
        externalRef: "order-7",
        postbackUrl: "https://loja.example/postbacks",
        items: [
          { title: "Caneca", description: "azul", quantity: 2, unitPrice: Cents.make(3_000), tangible: true },
          { title: "Frete", description: null, quantity: 1, unitPrice: Cents.make(4_000), tangible: false }
        ]
      })
      const pix = yield* anInvoice(company, { metadata: { order: "8", channel: "app" } })

      const readBoleto = Option.getOrThrow(yield* invoices.findById(boleto.id))
      expect(readBoleto).toEqual(boleto)
      expect(readBoleto.boleto?.dueDate).toBe(dateOf(at(0), 3))
      expect(readBoleto.pix).toBeNull()
      const readPix = Option.getOrThrow(yield* invoices.findById(pix.id))
      expect(readPix).toEqual(pix)
      expect(readPix.pix?.expiresAt).toBe(at(3_600))
    })
  )

  it.effect("finds an invoice only for its own company and mode; the payer's side finds it by secureId alone", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const company = yield* aCompany()
      const other = yield* aCompany()
      const invoice = yield* anInvoice(company)

      for (const reference of [bySecureId(invoice), byId(invoice)]) {
        expect(Option.isNone(yield* invoices.find(other.id, "test", reference))).toBe(true)
        expect(Option.isNone(yield* invoices.find(company.id, "live", reference))).toBe(true)
        expect(Option.isNone(yield* invoices.findWithCompany(other.id, "test", reference, at(0)))).toBe(true)
        expect(Option.isNone(yield* invoices.lock(other.id, "test", reference))).toBe(true)
        expect(Option.isSome(yield* invoices.find(company.id, "test", reference))).toBe(true)
      }
      expect(Option.getOrThrow(yield* invoices.findBySecureId(invoice.secureId)).companyId).toBe(company.id)
    })
  )

  it.effect("reads an invoice with its company and the company's totals as they are now", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const company = yield* aCompany()
      const invoice = yield* paidInvoice(company)

      const found = Option.getOrThrow(yield* invoices.findWithCompany(company.id, "test", bySecureId(invoice), at(0)))
      expect(found.invoice).toEqual(invoice)
      expect(found.company).toEqual(Option.getOrThrow(yield* companies.findById(company.id)))
      expect(found.totals).toEqual(yield* companies.totals(company.id, "test", at(0)))
      expect(found.totals.balancePix).toBe(10_000 - invoice.fee.estimatedFee)
    })
  )

  it.effect("keeps one client per company, mode and document, refreshed by later contact data", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const company = yield* aCompany()
      const other = yield* aCompany()
      const contact = {
        companyId: company.id,
        mode: "test" as const,
        document: payer.document,
        name: "Maria",
        email: "maria@antigo.example",
        phone: "+5511999990000",
        now: at(0)
      }
      const first = yield* invoices.upsertClient(contact)
      const again = yield* invoices.upsertClient({
        ...contact,
        name: "Maria Souza",
        email: "maria@novo.example",
        phone: null,
        now: at(60)
      })

      expect(again).toEqual({
        ...first,
        name: "Maria Souza",
        email: "maria@novo.example",
        phone: "+5511999990000",
        updatedAt: at(60)
      })
      const live = yield* invoices.upsertClient({ ...contact, mode: "live" })
      const otherCompanys = yield* invoices.upsertClient({ ...contact, companyId: other.id })
      expect(new Set([first.id, live.id, otherCompanys.id]).size).toBe(3)
    })
  )

  it.effect("keeps one card reference per distinct card of a client", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const company = yield* aCompany()
      const contact = { companyId: company.id, document: payer.document, name: "Maria", email: "m@e.example" }
      const client = yield* invoices.upsertClient({ ...contact, mode: "test", phone: null, now: at(0) })
      const otherClient = yield* invoices.upsertClient({ ...contact, mode: "live", phone: null, now: at(0) })
      const theCard = {
        companyId: company.id,
        clientId: client.id,
        brand: card.brand,
        firstDigits: card.firstDigits,
        lastDigits: card.lastDigits,
        expirationMonth: card.expirationMonth,
        expirationYear: card.expirationYear,
        now: at(0)
      }

      const first = yield* invoices.associateCard(theCard)
      expect(first).toEqual({ id: first.id, brand: "visa", lastDigits: "1111", clientId: client.id, createdAt: at(0) })
      expect(yield* invoices.associateCard({ ...theCard, now: at(60) })).toEqual(first)
      const anotherCard = yield* invoices.associateCard({ ...theCard, lastDigits: "2222" })
      const anotherClient = yield* invoices.associateCard({ ...theCard, clientId: otherClient.id })
      expect(new Set([first.id, anotherCard.id, anotherClient.id]).size).toBe(3)
    })
  )

  it.effect("hands out bank slip numbers of eleven digits that never repeat", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const numbers = yield* Effect.all(Array.from({ length: 5 }, () => invoices.nextOurNumber))
      expect(new Set(numbers).size).toBe(5)
      for (const number of numbers) expect(number).toMatch(/^\d{11}$/)
    })
  )

  it.effect("lists newest first and pages by cursor without skipping or repeating an invoice", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const company = yield* aCompany()
      const other = yield* aCompany()
      const created: Array<Invoice.Invoice> = []
      for (let n = 0; n < 7; n++) created.push(yield* anInvoice(company, { createdAt: at(n) }))
      // Neither the other mode's invoices nor another company's are the company's list.
      yield* anInvoice(company, { mode: "live", createdAt: at(3) })
      yield* anInvoice(other, { createdAt: at(3) })
      const newestFirst = created.map((invoice) => invoice.id).reverse()

      const listed = yield* invoices.list(filterOf(company))
      expect(listed.map((invoice) => invoice.id)).toEqual(newestFirst)
      expect(listed.map((invoice) => invoice.createdAt)).toEqual(created.map((invoice) => invoice.createdAt).reverse())

      for (const limit of [1, 2, 3, 6, 7, 10]) {
        const pages: Array<ReadonlyArray<Invoice.InvoiceId>> = []
        let beforeId: Invoice.InvoiceId | null = null
        let hasMore = true
        // Bounded, so that a cursor that stops moving fails the case instead of hanging it.
        while (hasMore && pages.length <= 7) {
          const rows: ReadonlyArray<Invoice.Invoice> = yield* invoices.list(filterOf(company, { beforeId, limit }))
          // One row beyond the page tells that there is another page.
          const page = rows.slice(0, limit).map((invoice) => invoice.id)
          hasMore = rows.length > limit
          pages.push(page)
          beforeId = page[page.length - 1] ?? null
        }
        expect(pages.flat(), `pages of ${limit}`).toEqual(newestFirst)
        expect(pages.length, `pages of ${limit}`).toBe(Math.max(1, Math.ceil(7 / limit)))
      }
    })
  )

  it.effect("filters the list by status, method, creation time and external reference", () =>
    Effect.gen(function* () {
      const company = yield* aCompany()
      const pendingPix = yield* anInvoice(company, { createdAt: at(10) })
      const paidPix = yield* anInvoice(company, { createdAt: at(20), status: "paid", paidAt: at(20), externalRef: "A" })
      const slip = yield* anInvoice(company, { createdAt: at(30), method: "bank_slip", externalRef: "B" })
      const refusedCard = yield* anInvoice(company, {
        createdAt: at(40),
        method: "credit_card",
        status: "refused",
        refusedReason: "insufficient funds",
        externalRef: "A"
      })
      const ids = (...found: ReadonlyArray<Invoice.Invoice>) => found.map((invoice) => invoice.id)

      expect(yield* listedIds(filterOf(company, { status: "pending" }))).toEqual(ids(slip, pendingPix))
      expect(yield* listedIds(filterOf(company, { status: "refused" }))).toEqual(ids(refusedCard))
      expect(yield* listedIds(filterOf(company, { method: "pix" }))).toEqual(ids(paidPix, pendingPix))
      expect(yield* listedIds(filterOf(company, { method: "credit_card" }))).toEqual(ids(refusedCard))
      // Both bounds include the instant they name.
      expect(yield* listedIds(filterOf(company, { createdGte: at(20) }))).toEqual(ids(refusedCard, slip, paidPix))
      expect(yield* listedIds(filterOf(company, { createdLte: at(20) }))).toEqual(ids(paidPix, pendingPix))
      expect(yield* listedIds(filterOf(company, { createdGte: at(20), createdLte: at(30) }))).toEqual(
        ids(slip, paidPix)
      )
      expect(yield* listedIds(filterOf(company, { externalRef: "A" }))).toEqual(ids(refusedCard, paidPix))
      expect(yield* listedIds(filterOf(company, { externalRef: "A", method: "pix" }))).toEqual(ids(paidPix))
      expect(yield* listedIds(filterOf(company, { externalRef: "none" }))).toEqual([])
      expect(yield* listedIds(filterOf(company, { status: "pending", beforeId: slip.id }))).toEqual(ids(pendingPix))
    })
  )

  it.effect("pages every filter by cursor, newest first by creation time and by id within an instant", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const company = yield* aCompany()
      const invoice = (seconds: number, changes: Partial<NewInvoice> = {}) =>
        anInvoice(company, { createdAt: at(seconds), ...changes })
      const paid = { status: "paid", paidAt: at(50) } as const
      const refused = { method: "credit_card", status: "refused", refusedReason: "card_declined" } as const
      // Written in this order, so their ids do not follow their creation times, and three share one instant.
      const i0 = yield* invoice(30, { externalRef: "A" })
      const i1 = yield* invoice(10, { method: "bank_slip", externalRef: "B" })
      const i2 = yield* invoice(30, { ...paid, externalRef: "A" })
      const i3 = yield* invoice(20, { ...refused, externalRef: "A" })
      const i4 = yield* invoice(40)
      const i5 = yield* invoice(10, { ...paid, externalRef: "A" })
      const i6 = yield* invoice(20, { method: "bank_slip", externalRef: "B" })
      const i7 = yield* invoice(30, refused)
      const newestFirst = [i4, i7, i2, i0, i6, i3, i5, i1]
      const ids = (...found: ReadonlyArray<Invoice.Invoice>) => found.map((listed) => listed.id)

      const cases: ReadonlyArray<[Partial<ListFilter>, (invoice: Invoice.Invoice) => boolean]> = [
        [{}, () => true],
        [{ status: "pending" }, (i) => i.status === "pending"],
        [{ status: "paid" }, (i) => i.status === "paid"],
        [{ method: "pix" }, (i) => i.method === "pix"],
        [{ method: "credit_card" }, (i) => i.method === "credit_card"],
        [{ createdGte: at(20) }, (i) => i.createdAt >= at(20)],
        [{ createdLte: at(30) }, (i) => i.createdAt <= at(30)],
        [{ createdGte: at(20), createdLte: at(30) }, (i) => i.createdAt >= at(20) && i.createdAt <= at(30)],
        [{ externalRef: "A" }, (i) => i.externalRef === "A"],
        [{ externalRef: "A", method: "pix" }, (i) => i.externalRef === "A" && i.method === "pix"],
        [{ status: "refused", createdLte: at(20) }, (i) => i.status === "refused" && i.createdAt <= at(20)]
      ]
      for (const [changes, matches] of cases) {
        const expected = ids(...newestFirst.filter(matches))
        for (const limit of [1, 2, 3, 100]) {
          const walked: Array<Invoice.InvoiceId> = []
          let beforeId: Invoice.InvoiceId | null = null
          // Bounded, so that a cursor that stops moving fails the case instead of hanging it.
          for (let pages = 0; pages <= newestFirst.length; pages++) {
            const rows: ReadonlyArray<Invoice.Invoice> = yield* invoices.list(
              filterOf(company, { ...changes, beforeId, limit })
            )
            walked.push(...rows.slice(0, limit).map((row) => row.id))
            if (rows.length <= limit) break
            beforeId = rows[limit - 1]!.id
          }
          expect(walked, `${JSON.stringify(changes)}, pages of ${limit}`).toEqual(expected)
        }
      }

      // A cursor taken from another walk: what follows it in the list that the filter makes.
      expect(yield* listedIds(filterOf(company, { createdLte: at(20), beforeId: i4.id }))).toEqual(ids(i6, i3, i5, i1))
      expect(yield* listedIds(filterOf(company, { status: "pending", beforeId: i7.id }))).toEqual(ids(i0, i6, i1))
      expect(yield* listedIds(filterOf(company, { createdGte: at(20), beforeId: i6.id }))).toEqual(ids(i3))
      expect(yield* listedIds(filterOf(company, { beforeId: i1.id }))).toEqual([])
    })
  )

  it.effect("records a move: status, paid time, timeline entry and ledger entries, with the totals following", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const invoice = yield* anInvoice(company, { createdAt: at(0) })
      const fee = Cents.make(invoice.fee.estimatedFee)

      const paid = yield* transactions.withTransaction(
        Effect.gen(function* () {
          const locked = yield* lockForMove(company, invoice)
          expect(locked).toEqual(invoice)
          return yield* invoices.applyTransition(locked, {
            status: "paid",
            event: "invoice.paid",
            at: at(60),
            paidAt: at(60),
            refundedAmount: Cents.make(0),
            movements: Ledger.onPaid("pix", invoice.amount, fee),
            refund: null
          })
        })
      )

      expect(paid).toEqual(Option.getOrThrow(yield* invoices.findById(invoice.id)))
      expect([paid.status, paid.paidAt, paid.updatedAt, paid.createdAt]).toEqual(["paid", at(60), at(60), at(0)])
      expect(paid.timeline.map((entry) => [entry.status, entry.createdAt])).toEqual([
        ["pending", at(0)],
        ["paid", at(60)]
      ])
      expect(paid.movements.map((entry) => [entry.type, entry.amount, entry.createdAt])).toEqual([
        ["payment", invoice.amount, at(60)],
        ["fee", fee, at(60)]
      ])
      expect(yield* companies.totals(company.id, "test", at(60))).toEqual({
        balancePix: invoice.amount - fee,
        balanceCard: 0,
        balanceBankSlip: 0,
        amountInvoiceTotal: invoice.amount,
        amountInvoicesCompeticion: invoice.amount
      })
      expect((yield* companies.totals(company.id, "live", at(60))).balancePix).toBe(0)

      const expired = yield* transactions.withTransaction(
        Effect.gen(function* () {
          const locked = yield* lockForMove(company, yield* anInvoice(company, { createdAt: at(0) }))
          return yield* invoices.applyTransition(locked, {
            status: "expired",
            event: "invoice.expired",
            at: at(120),
            paidAt: null,
            refundedAmount: Cents.make(0),
            movements: [],
            refund: null
          })
        })
      )
      expect(expired.timeline.map((entry) => entry.status)).toEqual(["pending", "expired"])
      expect(expired.movements).toEqual([])
      expect((yield* companies.totals(company.id, "test", at(120))).balancePix).toBe(invoice.amount - fee)
    })
  )

  it.effect("records refunds one after another; the refunded amount, the ledger and the balance follow", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const invoice = yield* paidInvoice(company, 10_000)
      const refund = (amount: number, refundedAmount: number, reason: string | null, seconds: number) =>
        transactions.withTransaction(
          Effect.gen(function* () {
            const locked = yield* lockForMove(company, invoice)
            const status = refundedAmount === locked.amount ? "refunded" : "partially_refunded"
            return yield* invoices.applyTransition(locked, {
              status,
              event: `invoice.${status}`,
              at: at(seconds),
              paidAt: locked.paidAt,
              refundedAmount: Cents.make(refundedAmount),
              movements: Ledger.onRefund("pix", Cents.make(amount)),
              refund: { amount: Cents.make(amount), reason }
            })
          })
        )

      const partly = yield* refund(3_000, 3_000, "damaged", 60)
      expect([partly.status, partly.refundedAmount, partly.paidAt]).toEqual(["partially_refunded", 3_000, at(0)])
      expect(partly.refunds.map((entry) => [entry.amount, entry.reason, entry.status, entry.createdAt])).toEqual([
        [3_000, "damaged", "succeeded", at(60)]
      ])

      const whole = yield* refund(7_000, 10_000, null, 120)
      expect([whole.status, whole.refundedAmount]).toEqual(["refunded", 10_000])
      expect(whole.refunds.map((entry) => [entry.amount, entry.reason])).toEqual([
        [3_000, "damaged"],
        [7_000, null]
      ])
      expect(whole.refunds[0]!.id).toBeLessThan(whole.refunds[1]!.id)
      expect(whole.movements.map((entry) => [entry.type, entry.direction, entry.amount])).toEqual([
        ["payment", "credit", 10_000],
        ["fee", "debit", invoice.fee.estimatedFee],
        ["refund", "debit", 3_000],
        ["refund", "debit", 7_000]
      ])
      expect(whole.timeline.map((entry) => entry.status)).toEqual(["pending", "paid", "partially_refunded", "refunded"])
      // A refund gives money back, but the invoice was paid all the same: the paid totals keep its amount.
      expect(yield* companies.totals(company.id, "test", at(120))).toMatchObject({
        balancePix: -invoice.fee.estimatedFee,
        amountInvoiceTotal: 10_000
      })
    })
  )

  it.effect("never changes or removes a ledger entry", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const invoices = yield* InvoiceRepository
      const company = yield* aCompany()
      const invoice = yield* paidInvoice(company)

      const changed = yield* Effect.exit(sql`UPDATE ledger_entries SET amount = 1 WHERE invoice_id = ${invoice.id}`)
      const removed = yield* Effect.exit(sql`DELETE FROM ledger_entries WHERE invoice_id = ${invoice.id}`)
      expect([Exit.isFailure(changed), Exit.isFailure(removed)]).toEqual([true, true])
      expect(Option.getOrThrow(yield* invoices.findById(invoice.id)).movements).toEqual(invoice.movements)
    })
  )

  it.effect("settles a pending card invoice with its charge, paid or refused", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const settle = (status: "paid" | "refused") =>
        transactions.withTransaction(
          Effect.gen(function* () {
            const invoice = yield* anInvoice(company, { method: "credit_card", amount: Cents.make(20_000) })
            const locked = yield* lockForMove(company, invoice)
            const cardAssociate = yield* invoices.associateCard({
              companyId: company.id,
              clientId: locked.client.id,
              brand: card.brand,
              firstDigits: card.firstDigits,
              lastDigits: card.lastDigits,
              expirationMonth: card.expirationMonth,
              expirationYear: card.expirationYear,
              now: at(60)
            })
            const fee = { ...locked.fee, estimatedFee: Cents.make(1_037) }
            const settled = yield* invoices.settleCardPayment(locked, {
              status,
              refusedReason: status === "refused" ? "insufficient funds" : null,
              installments: 3,
              fee,
              card,
              cardAssociate,
              at: at(60),
              movements: status === "paid" ? Ledger.onPaid("credit_card", locked.amount, fee.estimatedFee) : []
            })
            return { settled, cardAssociate, fee }
          })
        )

      const paid = yield* settle("paid")
      expect(paid.settled).toMatchObject({
        status: "paid",
        paidAt: at(60),
        updatedAt: at(60),
        refusedReason: null,
        installments: 3,
        fee: paid.fee,
        card,
        cardAssociate: paid.cardAssociate
      })
      expect(paid.settled.timeline.map((entry) => entry.status)).toEqual(["pending", "paid"])
      expect(paid.settled.movements.map((entry) => [entry.type, entry.amount, entry.balance])).toEqual([
        ["payment", 20_000, "card"],
        ["fee", 1_037, "card"]
      ])
      expect(Option.getOrThrow(yield* invoices.findById(paid.settled.id))).toEqual(paid.settled)

      const refused = yield* settle("refused")
      expect(refused.settled).toMatchObject({
        status: "refused",
        paidAt: null,
        refusedReason: "insufficient funds",
        card,
        movements: []
      })
      expect(refused.settled.timeline.map((entry) => entry.status)).toEqual(["pending", "refused"])
      expect(yield* companies.totals(company.id, "test", at(60))).toMatchObject({
        balanceCard: 20_000 - 1_037,
        amountInvoiceTotal: 20_000
      })
    })
  )

  it.effect("closes a charge answered too late, and records once how the acquirer gave it back", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const invoice = yield* anInvoice(company, { method: "credit_card", amount: Cents.make(20_000) })
      const reference = `ch_late_${invoice.id}`
      const requested = yield* transactions.withTransaction(
        Effect.gen(function* () {
          const locked = yield* lockForMove(company, invoice)
          const cardAssociate = yield* invoices.associateCard({
            companyId: company.id,
            clientId: locked.client.id,
            brand: card.brand,
            firstDigits: card.firstDigits,
            lastDigits: card.lastDigits,
            expirationMonth: card.expirationMonth,
            expirationYear: card.expirationYear,
            now: at(0)
          })
          yield* invoices.recordCardCharge({
            reference,
            invoiceId: invoice.id,
            companyId: company.id,
            mode: "test",
            terms: { installments: 1, fee: locked.fee, card, cardAssociate },
            draft: null,
            requestedAt: at(0)
          })
          return Option.getOrThrow(yield* invoices.chargeInFlight(invoice.id))
        })
      )
      expect(requested).toMatchObject({ reference, state: "requested", reversal: null })

      yield* transactions.withTransaction(
        Effect.gen(function* () {
          yield* lockForMove(company, invoice)
          yield* invoices.lockCardCharge(reference)
          yield* invoices.closeLateCardCharge(reference, true, at(10))
        })
      )
      expect(yield* invoices.chargeInFlight(invoice.id)).toEqual(Option.none())
      expect(yield* invoices.findCardCharge(reference)).toMatchObject({
        value: { state: "late", reversal: "requested", draft: null }
      })
      const staleBefore = (seconds: number) =>
        Effect.map(invoices.staleCardChargeReversals(at(seconds), 1_000), (stale) =>
          stale.filter((charge) => charge.reference === reference).map((charge) => charge.reversal)
        )
      expect(yield* staleBefore(10)).toEqual([])
      expect(yield* staleBefore(11)).toEqual(["requested"])

      yield* invoices.closeCardChargeReversal(reference, "refunded", at(20))
      yield* invoices.closeCardChargeReversal(reference, "voided", at(30))
      expect(yield* invoices.findCardCharge(reference)).toMatchObject({
        value: { state: "late", reversal: "refunded" }
      })
      expect(yield* staleBefore(60)).toEqual([])
    })
  )

  it.effect("finds the pending invoices of every company past their expiry or due date, oldest first", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const era = yield* freshEra
      const today = dateOf(era)
      const company = yield* aCompany()
      const other = yield* aCompany()
      const pixDue = (owner: Company.Company, seconds: number, expiresIn: number) => {
        const createdAt = Timestamp.plusSeconds(era, seconds)
        const invoice = draft(owner, { createdAt })
        return anInvoice(owner, {
          ...invoice,
          pix: { ...invoice.pix!, expiresAt: Timestamp.plusSeconds(createdAt, expiresIn) }
        })
      }
      const slipDue = (dueDate: string) => {
        const invoice = draft(company, { method: "bank_slip", createdAt: Timestamp.plusSeconds(era, -86_400 * 3) })
        return anInvoice(company, { ...invoice, boleto: { ...invoice.boleto!, dueDate } })
      }

      const expiredPix = yield* pixDue(company, 0, 60)
      yield* pixDue(company, 1, 600)
      const pastDueSlip = yield* slipDue(dateOf(era, -1))
      yield* slipDue(today)
      const paid = draft(company, { createdAt: era, status: "paid", paidAt: era })
      yield* anInvoice(company, { ...paid, pix: { ...paid.pix!, expiresAt: Timestamp.plusSeconds(era, 30) } })
      const othersExpiredPix = yield* pixDue(other, 2, 60)

      const now = Timestamp.plusSeconds(era, 120)
      expect(yield* invoices.findDueForExpiry(now, today, 10)).toEqual([
        { id: expiredPix.id, companyId: company.id },
        { id: pastDueSlip.id, companyId: company.id },
        { id: othersExpiredPix.id, companyId: other.id }
      ])
      expect(yield* invoices.findDueForExpiry(now, today, 1)).toEqual([{ id: expiredPix.id, companyId: company.id }])
      // A pix charge is due from its very instant of expiry on.
      expect(yield* invoices.findDueForExpiry(Timestamp.plusSeconds(era, 59), today, 10)).toEqual([
        { id: pastDueSlip.id, companyId: company.id }
      ])
      expect(yield* invoices.findDueForExpiry(Timestamp.plusSeconds(era, 60), today, 10)).toEqual([
        { id: expiredPix.id, companyId: company.id },
        { id: pastDueSlip.id, companyId: company.id }
      ])
    })
  )

  it.effect("locks, of the invoices it is given, those still pending", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const pending = yield* anInvoice(company)
      const paid = yield* anInvoice(company, { status: "paid", paidAt: at(0) })
      const later = yield* anInvoice(company)

      const locked = yield* transactions.withTransaction(invoices.lockPendingForExpiry([later.id, paid.id, pending.id]))
      expect([...locked].sort((a, b) => a - b)).toEqual([pending.id, later.id])
      expect(yield* transactions.withTransaction(invoices.lockPendingForExpiry([]))).toEqual([])
    })
  )

  it.effect("answers the company's ledger lock with the company as it is, and nothing for an unknown one", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      yield* companies.setBlock(company.id, "pix", true, at(30))

      const locked = yield* transactions.withTransaction(invoices.lockCompanyLedger(company.id))
      expect(Option.getOrThrow(locked)).toEqual(Option.getOrThrow(yield* companies.findById(company.id)))
      expect(Option.getOrThrow(locked).blocks.pix).toBe(true)
      const unknown = (company.id + 1_000_000) as Company.CompanyId
      expect(Option.isNone(yield* transactions.withTransaction(invoices.lockCompanyLedger(unknown)))).toBe(true)
    })
  )

  if (database.concurrent) {
    /** Runs `body` in a transaction of its own that holds its locks until `release` is completed. */
    const holding = <A, E, R>(
      body: Effect.Effect<A, E, R>,
      held: Deferred.Deferred<A>,
      release: Deferred.Deferred<void>
    ) =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        return yield* Effect.forkChild(
          transactions.withTransaction(
            Effect.gen(function* () {
              yield* Deferred.succeed(held, yield* body)
              yield* Deferred.await(release)
            })
          )
        )
      })

    it.effect("holds a locked invoice until its transaction ends: another lock of it waits", () =>
      Effect.gen(function* () {
        const invoices = yield* InvoiceRepository
        const transactions = yield* Transactions
        const company = yield* aCompany()
        const invoice = yield* anInvoice(company)
        const held = yield* Deferred.make<Option.Option<Invoice.Invoice>>()
        const release = yield* Deferred.make<void>()
        const holder = yield* holding(invoices.lock(company.id, "test", byId(invoice)), held, release)
        yield* Deferred.await(held)

        const waiter = yield* Effect.forkChild(
          transactions.withTransaction(invoices.lock(company.id, "test", byId(invoice)))
        )
        expect(Option.isNone(yield* Fiber.join(waiter).pipe(Effect.timeoutOption("300 millis")))).toBe(true)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        expect(Option.getOrThrow(yield* Fiber.join(waiter)).id).toBe(invoice.id)
      })
    )

    it.effect("skips, rather than waits for, a pending invoice that another transaction holds", () =>
      Effect.gen(function* () {
        const invoices = yield* InvoiceRepository
        const transactions = yield* Transactions
        const company = yield* aCompany()
        const taken = yield* anInvoice(company)
        const free = yield* anInvoice(company)
        const held = yield* Deferred.make<Option.Option<Invoice.Invoice>>()
        const release = yield* Deferred.make<void>()
        const holder = yield* holding(invoices.lock(company.id, "test", byId(taken)), held, release)
        yield* Deferred.await(held)

        const locked = yield* transactions
          .withTransaction(invoices.lockPendingForExpiry([taken.id, free.id]))
          .pipe(Effect.timeout("5 seconds"))
        expect(locked).toEqual([free.id])
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
      })
    )

    it.effect("serializes the moves of one company, but lets a new invoice of it be written meanwhile", () =>
      Effect.gen(function* () {
        const invoices = yield* InvoiceRepository
        const transactions = yield* Transactions
        const company = yield* aCompany()
        const held = yield* Deferred.make<Option.Option<Company.Company>>()
        const release = yield* Deferred.make<void>()
        const holder = yield* holding(invoices.lockCompanyLedger(company.id), held, release)
        yield* Deferred.await(held)

        const created = yield* transactions.withTransaction(anInvoice(company)).pipe(Effect.timeout("5 seconds"))
        expect(created.companyId).toBe(company.id)
        const mover = yield* Effect.forkChild(transactions.withTransaction(invoices.lockCompanyLedger(company.id)))
        expect(Option.isNone(yield* Fiber.join(mover).pipe(Effect.timeoutOption("300 millis")))).toBe(true)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        expect(Option.isSome(yield* Fiber.join(mover))).toBe(true)
      })
    )
  }
})
