// The CompanyRepository port in SQL: companies, their keys, and their running totals (migration 0006).
import { type ApiKeyRecord, CompanyRepository, type NewApiKey } from "@fatura/application"
import type { AutoWithdrawal, BankAccount, Company, FeePlan, Invoice } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { int, json, storage, text, timestamp } from "./Columns.js"
import * as Statements from "./Statements.js"

/** The company columns of table alias `alias`, named with `prefix` so that they can sit beside another table's. */
export const companyColumns = (sql: SqlClient.SqlClient, alias: string, prefix = "") =>
  sql.unsafe(Statements.companyColumnList(alias, prefix))

export const toTotals = (row: Record<string, unknown>): Company.CompanyTotals => ({
  balancePix: int(row.balance_pix),
  balanceCard: int(row.balance_card),
  balanceBankSlip: int(row.balance_bank_slip),
  waitingPix: int(row.waiting_pix),
  waitingCard: int(row.waiting_card),
  waitingBankSlip: int(row.waiting_bank_slip),
  amountInvoiceTotal: int(row.amount_invoice_total),
  amountInvoicesCompeticion: int(row.amount_invoices_competicion)
})

export const toCompany = (row: Record<string, unknown>, prefix = ""): Company.Company => ({
  id: int(row[`${prefix}id`]) as Company.CompanyId,
  cnpj: text(row[`${prefix}cnpj`]),
  companyType: text(row[`${prefix}company_type`]),
  corporateReason: text(row[`${prefix}corporate_reason`]),
  fantasyName: text(row[`${prefix}fantasy_name`]),
  urlWebsite: text(row[`${prefix}url_website`]),
  email: text(row[`${prefix}email`]),
  address: {
    street: text(row[`${prefix}address_street`]),
    number: text(row[`${prefix}address_number`]),
    city: text(row[`${prefix}address_city`]),
    postalCode: text(row[`${prefix}address_postal_code`]),
    province: text(row[`${prefix}address_province`]),
    state: text(row[`${prefix}address_state`])
  },
  bank: {
    code: text(row[`${prefix}bank_code`]),
    account: text(row[`${prefix}bank_account`]),
    agency: text(row[`${prefix}bank_agency`]),
    digit: text(row[`${prefix}bank_digit`]),
    name: text(row[`${prefix}bank_name`]),
    type: text(row[`${prefix}bank_type`]) as BankAccount.BankType
  },
  autoWithdrawal: text(row[`${prefix}auto_withdrawal`]) as AutoWithdrawal.Schedule,
  blocks: {
    system: row[`${prefix}blocked_system`] === true,
    processing: row[`${prefix}blocked_processing`] === true,
    pix: row[`${prefix}blocked_pix`] === true,
    card: row[`${prefix}blocked_card`] === true,
    bank_slip: row[`${prefix}blocked_bank_slip`] === true,
    sake: row[`${prefix}blocked_sake`] === true
  },
  feePlan: json<FeePlan.FeePlan>(row[`${prefix}fee_plan`]),
  isCustomFeePlan: row[`${prefix}is_custom`] === true,
  pixKey: text(row[`${prefix}pix_key`]),
  isActive3ds: row[`${prefix}is_active_3ds`] === true,
  createdAt: timestamp(row[`${prefix}created_at`]),
  updatedAt: timestamp(row[`${prefix}updated_at`])
})

const toKey = (row: Record<string, unknown>): ApiKeyRecord => ({
  id: int(row.key_id),
  companyId: int(row.key_company_id) as Company.CompanyId,
  kind: text(row.key_kind) as ApiKeyRecord["kind"],
  mode: text(row.key_mode) as Invoice.Mode,
  prefix: text(row.key_prefix),
  createdAt: timestamp(row.key_created_at),
  revokedAt: row.key_revoked_at === null ? null : timestamp(row.key_revoked_at)
})

const keyColumns = (sql: SqlClient.SqlClient) => sql.unsafe(Statements.keyColumnList)

const blockColumn: Record<Company.BlockKind, string> = {
  system: "blocked_system",
  processing: "blocked_processing",
  pix: "blocked_pix",
  card: "blocked_card",
  bank_slip: "blocked_bank_slip",
  sake: "blocked_sake"
}

export const layer = Layer.effect(
  CompanyRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = companyColumns(sql, "c")

    const insertKey = (key: NewApiKey) =>
      sql`
        INSERT INTO api_keys AS k (company_id, kind, mode, prefix, hash, public_token, created_at)
        VALUES (${key.companyId}, ${key.kind}, ${key.mode}, ${key.prefix}, ${key.hash}, ${key.publicToken},
                ${key.now}::timestamptz)
        RETURNING ${keyColumns(sql)}`.pipe(
        Effect.map((rows) => toKey(rows[0]!)),
        storage
      )

    // The one live public token per company and mode is kept (a unique index); a concurrent first call loses the
    // insert and reads the winner's.
    const publicToken = (candidate: NewApiKey) =>
      Effect.gen(function* () {
        yield* sql`
          INSERT INTO api_keys (company_id, kind, mode, prefix, hash, public_token, created_at)
          VALUES (${candidate.companyId}, 'public', ${candidate.mode}, ${candidate.prefix}, ${candidate.hash},
                  ${candidate.publicToken}, ${candidate.now}::timestamptz)
          ON CONFLICT (company_id, mode) WHERE kind = 'public' AND revoked_at IS NULL DO NOTHING`
        const rows = yield* sql`
          SELECT public_token FROM api_keys
          WHERE company_id = ${candidate.companyId} AND mode = ${candidate.mode} AND kind = 'public'
            AND revoked_at IS NULL`
        return text(rows[0]!.public_token)
      })

    return CompanyRepository.of({
      create: (company) =>
        sql`
          INSERT INTO companies (cnpj, corporate_reason, fantasy_name, email, fee_plan, is_custom, pix_key,
                                 created_at, updated_at)
          VALUES (${company.cnpj}, ${company.corporateReason}, ${company.fantasyName}, ${company.email},
                  ${JSON.stringify(company.feePlan)}::jsonb, ${company.isCustomFeePlan}, ${company.pixKey},
                  ${company.now}::timestamptz, ${company.now}::timestamptz)
          RETURNING ${companyColumns(sql, "companies")}`.pipe(
          Effect.map((rows) => toCompany(rows[0]!)),
          storage
        ),

      findById: (id) =>
        sql`SELECT ${columns} FROM companies c WHERE c.id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toCompany)),
          storage
        ),

      count: sql`SELECT count(*) AS n FROM companies`.pipe(
        Effect.map((rows) => int(rows[0]!.n)),
        storage
      ),

      totals: (id, mode, now) =>
        sql.unsafe<Record<string, unknown>>(Statements.companyTotals, [now, id, mode]).pipe(
          Effect.map((rows) => toTotals(rows[0]!)),
          storage
        ),

      findWithTotals: (id, mode, now) =>
        sql.unsafe<Record<string, unknown>>(Statements.companyWithTotals, [now, id, mode]).pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullishOr(rows[0]), (row) => ({ company: toCompany(row), totals: toTotals(row) }))
          ),
          storage
        ),

      setBlock: (id, block, blocked, now) =>
        sql`
          UPDATE companies SET ${sql(blockColumn[block])} = ${blocked}, updated_at = ${now}::timestamptz
          WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        ),

      setPixKey: (id, pixKey, now) =>
        sql`UPDATE companies SET pix_key = ${pixKey}, updated_at = ${now}::timestamptz WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        ),

      setBankAccount: (id, bank, now) =>
        sql`
          UPDATE companies
          SET bank_code = ${bank.code}, bank_name = ${bank.name}, bank_agency = ${bank.agency},
              bank_account = ${bank.account}, bank_digit = ${bank.digit}, bank_type = ${bank.type},
              updated_at = ${now}::timestamptz
          WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        ),

      setAutoWithdrawal: (id, schedule, now) =>
        sql`
          UPDATE companies SET auto_withdrawal = ${schedule}, updated_at = ${now}::timestamptz
          WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        ),

      // Marked as they are taken, in the statement that takes them: two sweeps never take one company the same day.
      claimAutoWithdrawals: (today, limit) =>
        sql`
          WITH claimed AS (
            SELECT id FROM companies
            WHERE auto_withdrawal <> 'off'
              AND (auto_withdrawal_checked_on IS NULL OR auto_withdrawal_checked_on < ${today}::date)
            ORDER BY id
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED
          ), marked AS (
            UPDATE companies SET auto_withdrawal_checked_on = ${today}::date
            WHERE id IN (SELECT id FROM claimed)
            RETURNING id
          )
          SELECT ${companyColumns(sql, "c")} FROM companies c WHERE c.id IN (SELECT id FROM marked) ORDER BY c.id`.pipe(
          Effect.map((rows) => rows.map((row) => toCompany(row))),
          storage
        ),

      activate3ds: (id, candidate, now) =>
        Effect.gen(function* () {
          const token = yield* publicToken(candidate)
          const rows = yield* sql`
            UPDATE companies
            SET three_ds_activated_at = coalesce(three_ds_activated_at, ${now}::timestamptz),
                three_ds_updated_at = ${now}::timestamptz,
                updated_at = ${now}::timestamptz
            WHERE id = ${id}
            RETURNING fatura_ts(three_ds_activated_at) AS activated_at, fatura_ts(three_ds_updated_at) AS updated_at`
          const row = rows[0]!
          return { publicToken: token, activatedAt: timestamp(row.activated_at), updatedAt: timestamp(row.updated_at) }
        }).pipe(sql.withTransaction, storage),

      publicToken: (candidate) => publicToken(candidate).pipe(storage),

      insertKey,

      findKeyByHash: (hash) =>
        sql.unsafe<Record<string, unknown>>(Statements.keyByHash, [hash]).pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullishOr(rows[0]), (row) => ({ key: toKey(row), company: toCompany(row) }))
          ),
          storage
        ),

      activeSecretKeys: (prefix) =>
        sql`
          SELECT ${keyColumns(sql)} FROM api_keys k
          WHERE k.prefix = ${prefix} AND k.kind = 'secret' AND k.revoked_at IS NULL ORDER BY k.id`.pipe(
          Effect.map((rows) => rows.map(toKey)),
          storage
        ),

      revokeKey: (id, now) =>
        sql`
          UPDATE api_keys SET revoked_at = ${now}::timestamptz
          WHERE id = ${id} AND revoked_at IS NULL
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          storage
        ),

      listKeys: (id) =>
        sql`
          SELECT ${keyColumns(sql)} FROM api_keys k
          WHERE k.company_id = ${id} AND k.kind = 'secret' ORDER BY k.id`.pipe(
          Effect.map((rows) => rows.map(toKey)),
          storage
        )
    })
  })
)
