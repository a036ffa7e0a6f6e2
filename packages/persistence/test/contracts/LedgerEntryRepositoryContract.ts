// The LedgerEntryRepository contract, as the statement relies on it (SPEC 13.2): a company's entries of one mode,
// newest first in the order they were recorded, each with its invoice's secureId and its bucket; filtered by time,
// balance and type; paged by the id of the last one seen; another company's or mode's never among them.
import { expect } from "@effect/vitest"
import { type BalanceOperation, LedgerEntryRepository, type OperationFilter } from "@fatura/application"
import { Cents, type Company, type Invoice } from "@fatura/domain"
import { Effect } from "effect"
import { aCompany, anInvoice, at, draft, paidNow } from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

/** An invoice of `company` of `method`, paid at `seconds`, with the entries of its payment. */
const paidAt = (
  company: Company.Company,
  method: "pix" | "credit_card",
  seconds: number,
  mode: Invoice.Mode = "test"
) => {
  const invoice = draft(company, {
    method,
    mode,
    amount: Cents.make(10_000),
    status: "paid",
    createdAt: at(seconds),
    updatedAt: at(seconds),
    paidAt: at(seconds),
    pix: null
  })
  return anInvoice(company, invoice, paidNow(invoice))
}

const everything = (company: Company.Company): OperationFilter => ({
  companyId: company.id,
  mode: "test",
  beforeId: null,
  createdGte: null,
  createdLte: null,
  balance: null,
  type: null,
  limit: 100
})

const asOperations = (invoice: Invoice.Invoice): ReadonlyArray<BalanceOperation> =>
  invoice.movements
    .map((movement) => ({ ...movement, invoiceId: invoice.secureId, withdrawalId: null }))
    .sort((a, b) => b.id - a.id)

export const ledgerEntryRepositoryContract: Contract = (it) => {
  it.effect("lists a company's entries of one mode newest first, with their invoice and bucket", () =>
    Effect.gen(function* () {
      const ledger = yield* LedgerEntryRepository
      const company = yield* aCompany()
      const pix = yield* paidAt(company, "pix", 0)
      const card = yield* paidAt(company, "credit_card", 60)
      yield* paidAt(company, "pix", 30, "live")
      yield* paidAt(yield* aCompany(), "pix", 0)

      const all = yield* ledger.operations(everything(company))
      expect(all).toEqual([...asOperations(card), ...asOperations(pix)])
      expect(all.map((entry) => [entry.type, entry.direction, entry.balance])).toEqual([
        ["fee", "debit", "card"],
        ["payment", "credit", "card"],
        ["fee", "debit", "pix"],
        ["payment", "credit", "pix"]
      ])
    })
  )

  it.effect("filters by time, balance and type, and pages after an entry", () =>
    Effect.gen(function* () {
      const ledger = yield* LedgerEntryRepository
      const company = yield* aCompany()
      const first = yield* paidAt(company, "pix", 0)
      const second = yield* paidAt(company, "credit_card", 60)
      const third = yield* paidAt(company, "pix", 120)
      const ids = (operations: ReadonlyArray<BalanceOperation>) => operations.map((entry) => entry.id)
      const idsOf = (...invoices: ReadonlyArray<Invoice.Invoice>) => invoices.flatMap(asOperations).map((e) => e.id)

      const filtered = (changes: Partial<OperationFilter>) =>
        Effect.map(ledger.operations({ ...everything(company), ...changes }), ids)
      expect(yield* filtered({ createdGte: at(60) })).toEqual(idsOf(third, second))
      expect(yield* filtered({ createdLte: at(60) })).toEqual(idsOf(second, first))
      expect(yield* filtered({ createdGte: at(30), createdLte: at(90) })).toEqual(idsOf(second))
      expect(yield* filtered({ balance: "pix" })).toEqual(idsOf(third, first))
      expect(yield* filtered({ type: "payment" })).toEqual(
        [third, first, second]
          .map((invoice) => invoice.movements.find((entry) => entry.type === "payment")!.id)
          .sort((a, b) => b - a)
      )
      const page = idsOf(third, second, first)
      expect(yield* filtered({ beforeId: page[1]!, limit: 2 })).toEqual(page.slice(2, 5))
    })
  )

  it.effect("knows an entry only as the company's own, in its mode", () =>
    Effect.gen(function* () {
      const ledger = yield* LedgerEntryRepository
      const company = yield* aCompany()
      const invoice = yield* paidAt(company, "pix", 0)
      const entry = invoice.movements[0]!.id
      expect(yield* ledger.hasOperation(company.id, "test", entry)).toBe(true)
      expect(yield* ledger.hasOperation(company.id, "live", entry)).toBe(false)
      expect(yield* ledger.hasOperation((yield* aCompany()).id, "test", entry)).toBe(false)
    })
  )
}
