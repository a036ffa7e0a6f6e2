// The baseline sends the repository's SQL: its steps are the texts of the built `@fatura/persistence/statements`
// entry, and it refuses to start (stepsOf throws) when a statement it needs is missing, when a step does not fill its
// statement's parameters one for one, or when the invoice insert's columns are not the ones it fills.
import { describe, expect, it } from "vitest"
import { loadStatements, stepsOf } from "../baseline-sql.mjs"

const statements = await loadStatements()

describe("the baseline's SQL", () => {
  it("is the persistence package's statements, each step filling its statement's parameters", () => {
    const steps = stepsOf(statements)
    expect(steps.keyLookup.sql).toBe(statements.keyByHash)
    expect(steps.searchById.map((step) => step.sql)).toEqual([statements.invoiceWithCompanyById])
    expect(steps.searchBySecureId.map((step) => step.sql)).toEqual([statements.invoiceWithCompanyBySecureId])
    expect(steps.createCompany.sql).toBe(statements.companyWithTotals)
    expect(steps.create.map((step) => step.sql)).toEqual([
      statements.upsertClient,
      statements.insertInvoice(1),
      statements.insertEvent
    ])
  })

  it("reads what the service reads and writes what it writes: the refunds' failure reason, the event's reason", () => {
    const steps = stepsOf(statements)
    for (const search of [steps.searchById, steps.searchBySecureId]) {
      expect(search[0].sql).toContain("i.pix_end_to_end_id")
      expect(search[0].sql).toContain("'failure_reason', f.failure_reason")
    }
    expect(steps.create[2].sql).toMatch(/INSERT INTO events \([^)]*\breason\)/)
  })

  it("refuses statements that lack one it sends", () => {
    const { insertEvent: _, ...withoutEvent } = statements
    expect(() => stepsOf(withoutEvent)).toThrow("lacks insertEvent")
  })

  it("refuses a statement that takes a parameter its step does not fill", () => {
    const widened = { ...statements, upsertClient: `${statements.upsertClient} AND $9 IS NULL` }
    expect(() => stepsOf(widened)).toThrow("client step fills 8 parameters, its statement takes 9")
  })

  it("refuses an invoice insert with a column it does not fill", () => {
    const widened = { ...statements, insertedInvoiceColumns: [...statements.insertedInvoiceColumns, "sandbox"] }
    expect(() => stepsOf(widened)).toThrow("the baseline does not fill sandbox")
  })
})
