// The migrations, as every start of a server or worker relies on them: an empty database gets the whole schema; a
// second run, or a second process starting at the same moment, applies nothing again; a database left at an earlier
// migration is brought up to date with what it held.
import { describe, expect, it } from "@effect/vitest"
import { IdempotencyStore, InvoiceRepository, type ListFilter, Transactions } from "@fatura/application"
import { Cents, type Company, FeePlan, type Invoice, type Timestamp } from "@fatura/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Migrations, SqlIdempotencyStore, SqlInvoiceRepository, SqlTransactions } from "../src/index.js"
import { payer } from "./support/Fixtures.js"
import { emptyDatabase, testDatabases } from "./support/TestDatabases.js"

const allMigrations = [
  [1, "foundation"],
  [2, "boleto_card_idempotency"],
  [3, "refunds"],
  [4, "postbacks"],
  [5, "card_tokens"],
  [6, "running_totals"],
  [7, "idempotency_claims_in_transaction"],
  [8, "webhook_secrets_per_mode"],
  [9, "idempotency_by_principal"],
  [10, "retention"],
  [11, "list_indexes"],
  [12, "charges_outside_transactions"],
  [13, "pix_provider"],
  [14, "late_card_charges"],
  [15, "deployment_secrets"],
  [16, "webhook_endpoints"],
  [17, "balance_operations"],
  [18, "company_bank_code"],
  [19, "receivables"],
  [20, "withdrawals"],
  [21, "auto_withdrawals"],
  [22, "banks"],
  [23, "hybrid_boletos"]
]

/** The tables, columns and indexes of the database, in an order of their own. */
const schema = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = yield* sql`
    SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
    WHERE table_schema = current_schema() ORDER BY table_name, column_name`
  const indexes = yield* sql`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexdef`
  return { columns, indexes }
})

for (const database of testDatabases) {
  describe(`Migrations on ${database.name}`, () => {
    it.live("apply the whole schema to an empty database, and nothing when run again", () =>
      Effect.gen(function* () {
        expect(yield* Migrations.run).toEqual(allMigrations)
        const migrated = yield* schema
        expect(migrated.columns.length).toBeGreaterThan(0)

        expect(yield* Migrations.run).toEqual([])
        expect(yield* schema).toEqual(migrated)
      }).pipe(Effect.provide(emptyDatabase(database)))
    )

    it.live("apply each migration once when two processes start at the same moment", () =>
      Effect.gen(function* () {
        const [first, second] = yield* Effect.all([Migrations.run, Migrations.run], { concurrency: "unbounded" })
        expect([first, second].map((applied) => applied.length).sort()).toEqual([0, allMigrations.length])
      }).pipe(Effect.provide(emptyDatabase(database)))
    )

    it.live("bring a database left at an earlier migration up to date, keeping what it held", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        expect(yield* Migrations.runThrough("0008_webhook_secrets_per_mode")).toEqual(allMigrations.slice(0, 8))
        // A response stored when keys were scoped by company alone.
        const [company] = yield* sql`
          INSERT INTO companies (cnpj, corporate_reason, fantasy_name, email, fee_plan, is_custom, pix_key, created_at,
                                 updated_at)
          VALUES ('11222333000181', 'Loja', 'Loja', 'a@loja.example', '{}'::jsonb, false, 'a@loja.example', now(),
                  now())
          RETURNING id`
        const companyId = Number(company!.id)
        yield* sql`
          INSERT INTO idempotency_keys (company_id, endpoint, key, request_hash, response_status, response_body,
                                        created_at)
          VALUES (${companyId}, 'POST /api/v2/invoices', 'key-1', 'hash-a', 201, '{"id":"inv_1"}', now())`

        expect(yield* Migrations.run).toEqual(allMigrations.slice(8))

        // It answers a repeat in either mode, as it did before: no earlier request runs anew.
        const store = yield* IdempotencyStore
        const transactions = yield* Transactions
        for (const mode of ["test", "live"]) {
          const scope = {
            principal: `company ${companyId} ${mode}`,
            companyId: companyId as Company.CompanyId,
            endpoint: "POST /api/v2/invoices",
            key: "key-1"
          }
          expect(yield* transactions.withTransaction(store.claim(scope, "hash-a"))).toEqual({
            _tag: "Replay",
            response: { status: 201, body: '{"id":"inv_1"}' }
          })
          // And to a request that holds its key by a lease, as a create now does.
          const now = "2026-03-02T12:00:00.000000Z" as Timestamp.Timestamp
          expect(yield* store.lease(scope, "hash-a", now, now)).toEqual({
            _tag: "Replay",
            response: { status: 201, body: '{"id":"inv_1"}' }
          })
        }
      }).pipe(
        Effect.provide(
          Layer.mergeAll(SqlIdempotencyStore.layer, SqlTransactions.layer).pipe(
            Layer.provideMerge(emptyDatabase(database))
          )
        )
      )
    )

    it.live("index the invoices a database already holds, which then list newest first", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        expect(yield* Migrations.runThrough("0010_retention")).toEqual(allMigrations.slice(0, 10))
        const [company] = yield* sql`
          INSERT INTO companies (cnpj, corporate_reason, fantasy_name, email, fee_plan, is_custom, pix_key, created_at,
                                 updated_at)
          VALUES ('11222333000181', 'Loja', 'Loja', 'a@loja.example', '{}'::jsonb, false, 'a@loja.example', now(),
                  now())
          RETURNING id`
        const companyId = Number(company!.id) as Company.CompanyId
        const [client] = yield* sql`
          INSERT INTO clients (company_id, mode, document_type, document_number, name, email, created_at, updated_at)
          VALUES (${companyId}, 'test', 'cpf', '52998224725', 'Maria', 'maria@pagadora.example', now(), now())
          RETURNING id`
        // Written out of the order of their creation times.
        const stored = yield* sql`
          INSERT INTO invoices (secure_id, company_id, client_id, mode, method, status, amount, installments,
                                traceable, external_ref, items, payer, token_checkout, fee, created_at, updated_at)
          SELECT gen_random_uuid(), ${companyId}, ${Number(client!.id)}, 'test', 'pix', 'pending', 1000, 1, false,
                 'order-' || n, '[]'::jsonb, ${JSON.stringify(payer)}::jsonb, 'token-' || n,
                 ${JSON.stringify(FeePlan.split(FeePlan.defaultFeePlan, "pix", 1, Cents.make(1000)))}::jsonb, created_at,
                 created_at
          FROM (VALUES (1, '2026-03-02T12:00:20Z'::timestamptz), (2, '2026-03-02T12:00:10Z'),
                       (3, '2026-03-02T12:00:30Z')) AS v (n, created_at)
          ORDER BY n
          RETURNING id`
        const [second, first, third] = stored.map((row) => Number(row.id))

        expect(yield* Migrations.runThrough("0011_list_indexes")).toEqual(allMigrations.slice(10, 11))

        const indexes = yield* sql`SELECT indexname FROM pg_indexes WHERE tablename = 'invoices' ORDER BY indexname`
        expect(indexes.map((row) => row.indexname)).toEqual(
          expect.arrayContaining([
            "invoices_company_mode_created",
            "invoices_company_mode_external_ref",
            "invoices_company_mode_method",
            "invoices_company_mode_status"
          ])
        )
        expect(indexes.map((row) => row.indexname)).not.toContain("invoices_company_mode")
        yield* Migrations.run
        const invoices = yield* InvoiceRepository
        const filter: ListFilter = {
          companyId,
          mode: "test",
          beforeId: null,
          status: null,
          method: null,
          createdGte: null,
          createdLte: null,
          externalRef: null,
          limit: 10
        }
        const listed = (changes: Partial<ListFilter>) =>
          Effect.map(invoices.list({ ...filter, ...changes }), (rows) => rows.map((row) => row.id))
        expect(yield* listed({})).toEqual([third, second, first])
        expect(yield* listed({ externalRef: "order-1" })).toEqual([second])
        expect(yield* listed({ beforeId: second as Invoice.InvoiceId })).toEqual([first])
      }).pipe(Effect.provide(SqlInvoiceRepository.layer.pipe(Layer.provideMerge(emptyDatabase(database)))))
    )

    it.live("make what was paid before receivables available, as receivables, with no balance changed; add fees", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* Migrations.runThrough("0018_company_bank_code")
        const [company] = yield* sql`
          INSERT INTO companies (cnpj, corporate_reason, fantasy_name, email, fee_plan, is_custom, pix_key, created_at,
                                 updated_at)
          VALUES ('11222333000181', 'Loja', 'Loja', 'a@loja.example', ${JSON.stringify(oldPlan)}::jsonb, false,
                  'a@loja.example', now(), now())
          RETURNING id`
        const companyId = Number(company!.id)
        const [client] = yield* sql`
          INSERT INTO clients (company_id, mode, document_type, document_number, name, email, created_at, updated_at)
          VALUES (${companyId}, 'test', 'cpf', '52998224725', 'Maria', 'maria@pagadora.example', now(), now())
          RETURNING id`
        const invoice = (n: number, method: string, status: string, amount: number, installments: number) =>
          Effect.map(
            sql`
              INSERT INTO invoices (secure_id, company_id, client_id, mode, method, status, amount, installments,
                                    traceable, items, payer, token_checkout, fee, created_at, updated_at, paid_at)
              VALUES (gen_random_uuid(), ${companyId}, ${Number(client!.id)}, 'test', ${method}, ${status}, ${amount},
                      ${installments}, false, '[]'::jsonb, ${JSON.stringify(payer)}::jsonb, ${`token-${n}`}, '{}'::jsonb,
                      '2026-03-02T15:00:00Z', '2026-03-02T15:00:00Z',
                      ${status === "pending" ? null : "2026-03-02T15:00:00Z"}::timestamptz)
              RETURNING id`,
            (rows) => Number(rows[0]!.id)
          )
        const entries = (id: number, balance: string, moves: ReadonlyArray<readonly [string, string, number]>) =>
          sql`
            INSERT INTO ledger_entries (company_id, invoice_id, mode, type, direction, amount, balance, created_at)
            SELECT ${companyId}, ${id}, 'test', m.type, m.direction, m.amount, ${balance}, '2026-03-02T15:00:00Z'
            FROM (VALUES ${sql.csv(moves.map(([type, direction, amount]) => sql`(${type}, ${direction}, ${amount}::bigint)`))})
              AS m (type, direction, amount)`
        const pix = yield* invoice(1, "pix", "partially_refunded", 10_000, 1)
        yield* entries(pix, "pix", [
          ["payment", "credit", 10_000],
          ["fee", "debit", 199],
          ["refund", "debit", 3_000]
        ])
        // A card of 10 001 in 3 installments with a fee of 539: the first installment takes both remainders.
        const card = yield* invoice(2, "credit_card", "chargedback", 10_001, 3)
        yield* entries(card, "card", [
          ["payment", "credit", 10_001],
          ["fee", "debit", 539],
          ["chargeback", "debit", 10_001]
        ])
        yield* invoice(3, "bank_slip", "pending", 5_000, 1)
        const balances = sql`SELECT pix, card, bank_slip FROM company_balances WHERE company_id = ${companyId}`
        const before = yield* balances

        expect(yield* Migrations.runThrough("0019_receivables")).toEqual(allMigrations.slice(18, 19))

        expect(yield* balances).toEqual(before)
        const [waiting] = yield* sql`
          SELECT waiting_pix, waiting_card, waiting_bank_slip FROM company_balances WHERE company_id = ${companyId}`
        expect(Object.values(waiting!).map(Number)).toEqual([0, 0, 0])
        const receivables = yield* sql`
          SELECT invoice_id, installment, amount, fee, net_amount, balance, status,
                 to_char(payment_date, 'YYYY-MM-DD') AS payment_date
          FROM receivables ORDER BY id`
        expect(
          receivables.map((row) => [
            Number(row.invoice_id),
            Number(row.installment),
            Number(row.amount),
            Number(row.fee),
            Number(row.net_amount),
            row.balance,
            row.status,
            row.payment_date
          ])
        ).toEqual([
          [pix, 1, 10_000, 199, 9_801, "pix", "available", "2026-03-02"],
          [card, 1, 3_335, 181, 3_154, "card", "available", "2026-03-02"],
          [card, 2, 3_333, 179, 3_154, "card", "available", "2026-03-02"],
          [card, 3, 3_333, 179, 3_154, "card", "available", "2026-03-02"],
          [pix, 1, -3_000, 0, -3_000, "pix", "available", "2026-03-02"],
          [card, 3, -10_001, 0, -10_001, "card", "available", "2026-03-02"]
        ])
        // Each invoice's receivables add up to what its entries left in its balance.
        const sums = yield* sql`
          SELECT r.invoice_id, sum(r.net_amount) AS receivables,
            (SELECT sum(CASE WHEN l.direction = 'credit' THEN l.amount ELSE -l.amount END) FROM ledger_entries l
              WHERE l.invoice_id = r.invoice_id) AS entries
          FROM receivables r GROUP BY r.invoice_id`
        for (const row of sums) expect(Number(row.receivables)).toBe(Number(row.entries))
        const [plan] = yield* sql`SELECT fee_plan FROM companies WHERE id = ${companyId}`
        const stored = typeof plan!.fee_plan === "string" ? JSON.parse(plan!.fee_plan) : plan!.fee_plan
        expect(stored).toEqual(FeePlan.defaultFeePlan)

        // A plan stored before withdrawals gets their default fee.
        yield* sql`UPDATE companies SET fee_plan = fee_plan - 'withdrawalFee' WHERE id = ${companyId}`
        expect(yield* Migrations.runThrough("0020_withdrawals")).toEqual(allMigrations.slice(19, 20))
        const [withFee] = yield* sql`SELECT fee_plan FROM companies WHERE id = ${companyId}`
        expect(typeof withFee!.fee_plan === "string" ? JSON.parse(withFee!.fee_plan) : withFee!.fee_plan).toEqual(
          FeePlan.defaultFeePlan
        )
      }).pipe(Effect.provide(emptyDatabase(database)))
    )
  })
}

/** The default plan as it was stored before it held its settlement days. */
const { settlementDays: _, ...oldPlan } = FeePlan.defaultFeePlan
