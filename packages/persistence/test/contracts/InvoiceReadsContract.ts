// The InvoiceRepository contract, as the invoice use cases read invoices: an invoice reads back as it was stored, by
// secureId or id, for its own company and mode only, with its company and totals when asked; lists are newest first
// and page by cursor without skips or repeats, under every filter.
import { expect } from "@effect/vitest"
import { CompanyRepository, InvoiceRepository, type ListFilter, type NewInvoice } from "@fatura/application"
import { Cents, type Company, type Invoice } from "@fatura/domain"
import { Effect, Option } from "effect"
import { aCompany, anInvoice, at, byId, bySecureId, dateOf, paidInvoice } from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

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

export const invoiceReadsContract: Contract = (it) => {
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
}
