// SPEC 5.3, 7.4, 13.1: balances and paid totals are running sums kept by the database (migration 0006), each balance
// in two buckets since migration 0019: available, and waiting for its receivables. They are filled from what was
// recorded before the migrations, move with every ledger entry (in its bucket) and every `paid_at`, and the
// competition month is the São Paulo calendar month: 2026-10-01T02:59:59Z is still September there.

import { CompanyRepository } from "@fatura/application"
import type { Company, Timestamp } from "@fatura/domain"
import { Database, Migrations, SqlCompanyRepository } from "@fatura/persistence"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testDatabases } from "./support/TestDatabases.js"

type Mode = "test" | "live"
type Kind = "pix" | "card" | "bank_slip"
type Bucket = "available" | "waiting"

describe.each(testDatabases)("running totals on $name", (database) => {
  let runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient | CompanyRepository, unknown>
  let release: () => Promise<void>
  const run = <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient | CompanyRepository>) =>
    runtime.runPromise(effect)
  const query = (statement: string) =>
    run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return yield* sql.unsafe<Record<string, unknown>>(statement)
      })
    )

  let nextInvoice = 0
  /** A company with a client of each mode; until migration 0008 a company row held its webhook secret too. */
  const insertCompany = async (schema: "before 0008" | "current") => {
    const secret = schema === "before 0008" ? { column: "webhook_secret, ", value: "'whsec_x', " } : null
    const [row] = await query(`
      INSERT INTO companies (cnpj, corporate_reason, fantasy_name, email, fee_plan, is_custom, pix_key,
                             ${secret?.column ?? ""}created_at, updated_at)
      VALUES ('11222333000181', 'Loja', 'Loja', 'a@b.example', '{}'::jsonb, false, 'a@b.example',
              ${secret?.value ?? ""}now(), now())
      RETURNING id`)
    const companyId = Number(row!.id)
    const clients: Record<Mode, number> = { test: 0, live: 0 }
    for (const mode of ["test", "live"] as const) {
      const [client] = await query(`
        INSERT INTO clients (company_id, mode, document_type, document_number, name, email, created_at, updated_at)
        VALUES (${companyId}, '${mode}', 'cpf', '52998224725', 'Maria', 'm@e.example', now(), now())
        RETURNING id`)
      clients[mode] = Number(client!.id)
    }
    return { companyId, clients }
  }
  type Owner = Awaited<ReturnType<typeof insertCompany>>

  const insertInvoice = async (owner: Owner, mode: Mode, amount: number, paidAt: string | null) => {
    nextInvoice += 1
    const [row] = await query(`
      INSERT INTO invoices (secure_id, company_id, client_id, mode, method, status, amount, installments, traceable,
                            items, payer, token_checkout, fee, created_at, updated_at, paid_at)
      VALUES (gen_random_uuid(), ${owner.companyId}, ${owner.clients[mode]}, '${mode}', 'pix',
              '${paidAt === null ? "pending" : "paid"}', ${amount}, 1, false, '[]'::jsonb, '{}'::jsonb,
              'token-${nextInvoice}', '{}'::jsonb, now(), now(), ${paidAt === null ? "NULL" : `'${paidAt}'`})
      RETURNING id`)
    return Number(row!.id)
  }

  /**
   * A ledger entry: a payment's credit or a fee's debit unless `type` says otherwise; in `bucket` when given (the
   * column's default, `available`, otherwise: before migration 0017 there is no such column).
   */
  const insertEntry = (
    owner: Owner,
    invoiceId: number,
    mode: Mode,
    kind: Kind,
    direction: string,
    amount: number,
    { type, bucket }: { readonly type?: string; readonly bucket?: Bucket } = {}
  ) =>
    query(`
      INSERT INTO ledger_entries (company_id, invoice_id, mode, type, direction, amount, balance,
                                  ${bucket === undefined ? "" : "bucket, "}created_at)
      VALUES (${owner.companyId}, ${invoiceId}, '${mode}', '${type ?? (direction === "credit" ? "payment" : "fee")}',
              '${direction}', ${amount}, '${kind}', ${bucket === undefined ? "" : `'${bucket}', `}now())`)

  const totals = (owner: Owner, mode: Mode, now: string) =>
    run(
      Effect.gen(function* () {
        const companies = yield* CompanyRepository
        return yield* companies.totals(owner.companyId as Company.CompanyId, mode, now as Timestamp.Timestamp)
      })
    )

  /**
   * The totals summed from scratch, as the service computed them before migration 0006: each balance per bucket, its
   * entries in `available` for `balance*`, in `waiting` for `waiting*`.
   */
  const recomputed = async (owner: Owner, mode: Mode, now: string) => {
    const balance = (kind: Kind, bucket: Bucket) => `
        (SELECT coalesce(sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END), 0) FROM ledger_entries
          WHERE company_id = ${owner.companyId} AND mode = '${mode}' AND balance = '${kind}'
            AND bucket = '${bucket}') AS ${bucket}_${kind}`
    const balances = (["pix", "card", "bank_slip"] as const).flatMap((kind) =>
      (["available", "waiting"] as const).map((bucket) => balance(kind, bucket))
    )
    const [row] = await query(`
      SELECT ${balances.join(",")},
        (SELECT coalesce(sum(amount), 0) FROM invoices
          WHERE company_id = ${owner.companyId} AND mode = '${mode}' AND paid_at IS NOT NULL) AS total,
        (SELECT coalesce(sum(amount), 0) FROM invoices
          WHERE company_id = ${owner.companyId} AND mode = '${mode}' AND paid_at IS NOT NULL
            AND paid_at >= date_trunc('month', '${now}'::timestamptz AT TIME ZONE 'America/Sao_Paulo')
                           AT TIME ZONE 'America/Sao_Paulo'
            AND paid_at < (date_trunc('month', '${now}'::timestamptz AT TIME ZONE 'America/Sao_Paulo')
                           + interval '1 month') AT TIME ZONE 'America/Sao_Paulo') AS month`)
    return {
      balancePix: Number(row!.available_pix),
      balanceCard: Number(row!.available_card),
      balanceBankSlip: Number(row!.available_bank_slip),
      waitingPix: Number(row!.waiting_pix),
      waitingCard: Number(row!.waiting_card),
      waitingBankSlip: Number(row!.waiting_bank_slip),
      amountInvoiceTotal: Number(row!.total),
      amountInvoicesCompeticion: Number(row!.month)
    }
  }

  const september = "2026-09-30T23:00:00.000Z"
  const october = "2026-10-15T12:00:00.000Z"

  beforeAll(async () => {
    const acquired = await database.acquire({ empty: true })
    release = acquired.release
    runtime = ManagedRuntime.make(
      SqlCompanyRepository.layer.pipe(Layer.provideMerge(Database.client(acquired.config)), Layer.orDie)
    )
    await run(Migrations.runThrough("0005_card_tokens"))
  })
  afterAll(async () => {
    await runtime.dispose()
    await release()
  })

  it("are filled from the ledger and the paid invoices recorded before the migration", async () => {
    const first = await insertCompany("before 0008")
    const second = await insertCompany("before 0008")
    const lastOfSeptember = await insertInvoice(first, "test", 10_000, "2026-10-01T02:59:59.000Z")
    const firstOfOctober = await insertInvoice(first, "test", 2_500, "2026-10-01T03:00:00.000Z")
    await insertInvoice(first, "test", 999, null)
    const live = await insertInvoice(first, "live", 7_000, "2026-10-02T12:00:00.000Z")
    const other = await insertInvoice(second, "test", 4_000, "2026-10-03T12:00:00.000Z")
    await insertEntry(first, lastOfSeptember, "test", "pix", "credit", 10_000)
    await insertEntry(first, lastOfSeptember, "test", "pix", "debit", 99)
    await insertEntry(first, firstOfOctober, "test", "card", "credit", 2_500)
    await insertEntry(first, firstOfOctober, "test", "bank_slip", "debit", 300)
    await insertEntry(first, live, "live", "pix", "credit", 7_000)
    await insertEntry(second, other, "test", "pix", "credit", 4_000)

    // Migration 0019 gives what was paid before it receivables already available, and moves no balance: the
    // running balances are those filled before it, and nothing waits.
    await run(Migrations.runThrough("0018_company_bank_code"))
    const companies = `${first.companyId}, ${second.companyId}`
    const stored = `SELECT company_id, mode, pix::int, card::int, bank_slip::int FROM company_balances
                    WHERE company_id IN (${companies}) ORDER BY company_id, mode`
    const before = await query(stored)
    await run(Migrations.run)
    expect(await query(stored)).toEqual(before)
    const receivables = await query(`
      SELECT invoice_id, status, count(*)::int AS count FROM receivables WHERE company_id IN (${companies})
      GROUP BY invoice_id, status ORDER BY invoice_id`)
    expect(receivables.map((row) => [Number(row.invoice_id), row.status, row.count])).toEqual(
      [lastOfSeptember, firstOfOctober, live, other].map((invoice) => [invoice, "available", 1])
    )

    const nothingWaits = { waitingPix: 0, waitingCard: 0, waitingBankSlip: 0 }
    expect(await totals(first, "test", october)).toEqual({
      balancePix: 9_901,
      balanceCard: 2_500,
      balanceBankSlip: -300,
      ...nothingWaits,
      amountInvoiceTotal: 12_500,
      amountInvoicesCompeticion: 2_500
    })
    expect(await totals(first, "test", september)).toMatchObject({ amountInvoicesCompeticion: 10_000 })
    expect(await totals(first, "live", october)).toEqual({
      balancePix: 7_000,
      balanceCard: 0,
      balanceBankSlip: 0,
      ...nothingWaits,
      amountInvoiceTotal: 7_000,
      amountInvoicesCompeticion: 7_000
    })
    expect(await totals(second, "test", october)).toMatchObject({ balancePix: 4_000, amountInvoiceTotal: 4_000 })
    expect(await totals(second, "live", october)).toEqual({
      balancePix: 0,
      balanceCard: 0,
      balanceBankSlip: 0,
      ...nothingWaits,
      amountInvoiceTotal: 0,
      amountInvoicesCompeticion: 0
    })
    for (const [owner, mode] of [
      [first, "test"],
      [first, "live"],
      [second, "test"]
    ] as const) {
      expect(await totals(owner, mode, october)).toEqual(await recomputed(owner, mode, october))
    }
  })

  it("move with every ledger entry and every change of paid_at, and equal the totals summed from scratch", async () => {
    const owner = await insertCompany("current")
    const pending = await insertInvoice(owner, "test", 5_000, null)
    const paidLater = await insertInvoice(owner, "test", 3_000, null)
    expect(await totals(owner, "test", october)).toEqual(await recomputed(owner, "test", october))

    await query(`UPDATE invoices SET paid_at = '2026-10-10T10:00:00Z', status = 'paid' WHERE id = ${pending}`)
    await insertEntry(owner, pending, "test", "pix", "credit", 5_000)
    await insertEntry(owner, pending, "test", "pix", "debit", 49)
    await query(`UPDATE invoices SET paid_at = '2026-09-10T10:00:00Z', status = 'paid' WHERE id = ${paidLater}`)
    await insertEntry(owner, paidLater, "test", "card", "credit", 3_000)
    // Rewriting an unchanged paid_at (as every transition does) counts nothing twice.
    await query(`UPDATE invoices SET paid_at = paid_at, status = 'refunded' WHERE id = ${pending}`)
    await insertEntry(owner, pending, "test", "pix", "debit", 5_000)
    // A change of month moves the amount from one month to the other.
    await query(`UPDATE invoices SET paid_at = '2026-10-20T10:00:00Z' WHERE id = ${paidLater}`)
    // Entries of the waiting bucket move only the waiting totals: a card payment and its fee waiting for their
    // receivables, part of it settled (out of waiting, into available), and a boleto payment a refund takes from.
    await insertEntry(owner, paidLater, "test", "card", "credit", 1_200, { bucket: "waiting" })
    await insertEntry(owner, paidLater, "test", "card", "debit", 200, { bucket: "waiting" })
    await insertEntry(owner, paidLater, "test", "card", "debit", 400, { type: "settlement", bucket: "waiting" })
    await insertEntry(owner, paidLater, "test", "card", "credit", 400, { type: "settlement", bucket: "available" })
    await insertEntry(owner, paidLater, "test", "bank_slip", "credit", 700, { bucket: "waiting" })
    await insertEntry(owner, paidLater, "test", "bank_slip", "debit", 300, { type: "refund", bucket: "waiting" })

    for (const now of [september, october]) {
      expect(await totals(owner, "test", now)).toEqual(await recomputed(owner, "test", now))
    }
    expect(await totals(owner, "test", october)).toEqual({
      balancePix: -49,
      balanceCard: 3_000 + 400,
      balanceBankSlip: 0,
      waitingPix: 0,
      waitingCard: 1_200 - 200 - 400,
      waitingBankSlip: 700 - 300,
      amountInvoiceTotal: 8_000,
      amountInvoicesCompeticion: 8_000
    })

    await query(`UPDATE invoices SET paid_at = NULL WHERE id = ${paidLater}`)
    expect(await totals(owner, "test", october)).toEqual(await recomputed(owner, "test", october))
    expect(await totals(owner, "test", october)).toMatchObject({ amountInvoiceTotal: 5_000 })
  })
})
