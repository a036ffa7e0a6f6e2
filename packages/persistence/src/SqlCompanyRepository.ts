// The CompanyRepository port in SQL: companies, their keys, and their totals derived from the ledger.
import { type ApiKeyRecord, CompanyRepository, type NewApiKey } from "@fatura/application"
import type { Company, FeePlan, Invoice, Timestamp } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { int, json, storage, text, timestamp } from "./Columns.js"

const companyColumns = (sql: SqlClient.SqlClient, alias: string) =>
  sql.unsafe(`
  ${alias}.id, ${alias}.cnpj, ${alias}.company_type, ${alias}.corporate_reason, ${alias}.fantasy_name,
  ${alias}.url_website, ${alias}.email, ${alias}.address_street, ${alias}.address_number, ${alias}.address_city,
  ${alias}.address_postal_code, ${alias}.address_province, ${alias}.address_state, ${alias}.bank_account,
  ${alias}.bank_agency, ${alias}.bank_digit, ${alias}.bank_name, ${alias}.bank_type, ${alias}.blocked_system,
  ${alias}.blocked_processing, ${alias}.blocked_pix, ${alias}.blocked_card, ${alias}.blocked_bank_slip,
  ${alias}.blocked_sake, ${alias}.fee_plan, ${alias}.is_custom, ${alias}.pix_key,
  ${alias}.three_ds_activated_at IS NOT NULL AS is_active_3ds,
  fatura_ts(${alias}.created_at) AS created_at, fatura_ts(${alias}.updated_at) AS updated_at`)

export const toCompany = (row: Record<string, unknown>): Company.Company => ({
  id: int(row.id) as Company.CompanyId,
  cnpj: text(row.cnpj),
  companyType: text(row.company_type),
  corporateReason: text(row.corporate_reason),
  fantasyName: text(row.fantasy_name),
  urlWebsite: text(row.url_website),
  email: text(row.email),
  address: {
    street: text(row.address_street),
    number: text(row.address_number),
    city: text(row.address_city),
    postalCode: text(row.address_postal_code),
    province: text(row.address_province),
    state: text(row.address_state)
  },
  bank: {
    account: text(row.bank_account),
    agency: text(row.bank_agency),
    digit: text(row.bank_digit),
    name: text(row.bank_name),
    type: text(row.bank_type) as Company.BankType
  },
  blocks: {
    system: row.blocked_system === true,
    processing: row.blocked_processing === true,
    pix: row.blocked_pix === true,
    card: row.blocked_card === true,
    bank_slip: row.blocked_bank_slip === true,
    sake: row.blocked_sake === true
  },
  feePlan: json<FeePlan.FeePlan>(row.fee_plan),
  isCustomFeePlan: row.is_custom === true,
  pixKey: text(row.pix_key),
  isActive3ds: row.is_active_3ds === true,
  createdAt: timestamp(row.created_at),
  updatedAt: timestamp(row.updated_at)
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

const keyColumns = (sql: SqlClient.SqlClient) =>
  sql.unsafe(`
  k.id AS key_id, k.company_id AS key_company_id, k.kind AS key_kind, k.mode AS key_mode, k.prefix AS key_prefix,
  fatura_ts(k.created_at) AS key_created_at, fatura_ts(k.revoked_at) AS key_revoked_at`)

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
                                 webhook_secret, created_at, updated_at)
          VALUES (${company.cnpj}, ${company.corporateReason}, ${company.fantasyName}, ${company.email},
                  ${JSON.stringify(company.feePlan)}::jsonb, ${company.isCustomFeePlan}, ${company.pixKey},
                  ${company.webhookSecret}, ${company.now}::timestamptz, ${company.now}::timestamptz)
          RETURNING ${companyColumns(sql, "companies")}`.pipe(
          Effect.map((rows) => toCompany(rows[0]!)),
          storage
        ),

      findById: (id) =>
        sql`SELECT ${companyColumns(sql, "c")} FROM companies c WHERE c.id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toCompany)),
          storage
        ),

      count: sql`SELECT count(*) AS n FROM companies`.pipe(
        Effect.map((rows) => int(rows[0]!.n)),
        storage
      ),

      totals: (id, mode, now) =>
        sql`
          SELECT
            coalesce(sum(CASE WHEN l.balance = 'pix' THEN l.signed END), 0) AS balance_pix,
            coalesce(sum(CASE WHEN l.balance = 'card' THEN l.signed END), 0) AS balance_card,
            coalesce(sum(CASE WHEN l.balance = 'bank_slip' THEN l.signed END), 0) AS balance_bank_slip,
            (SELECT coalesce(sum(i.amount), 0) FROM invoices i
              WHERE i.company_id = ${id} AND i.mode = ${mode} AND i.paid_at IS NOT NULL) AS amount_invoice_total,
            (SELECT coalesce(sum(i.amount), 0) FROM invoices i
              WHERE i.company_id = ${id} AND i.mode = ${mode} AND i.paid_at IS NOT NULL
                AND i.paid_at >= date_trunc('month', ${now}::timestamptz AT TIME ZONE 'America/Sao_Paulo')
                                 AT TIME ZONE 'America/Sao_Paulo') AS amount_invoices_competicion
          FROM (
            SELECT balance, CASE WHEN direction = 'credit' THEN amount ELSE -amount END AS signed
            FROM ledger_entries WHERE company_id = ${id} AND mode = ${mode}
          ) l`.pipe(
          Effect.map((rows) => {
            const row = rows[0]!
            return {
              balancePix: int(row.balance_pix),
              balanceCard: int(row.balance_card),
              balanceBankSlip: int(row.balance_bank_slip),
              amountInvoiceTotal: int(row.amount_invoice_total),
              amountInvoicesCompeticion: int(row.amount_invoices_competicion)
            } satisfies Company.CompanyTotals
          }),
          storage
        ),

      setBlock: (id, block, blocked, now) =>
        sql`
          UPDATE companies SET ${sql(blockColumn[block])} = ${blocked}, updated_at = ${now}::timestamptz
          WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
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
        sql`
          SELECT ${keyColumns(sql)}, ${companyColumns(sql, "c")}
          FROM api_keys k JOIN companies c ON c.id = k.company_id
          WHERE k.hash = ${hash}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullishOr(rows[0]), (row) => ({ key: toKey(row), company: toCompany(row) }))
          ),
          storage
        ),

      revokeKeys: (prefix: string, now: Timestamp.Timestamp) =>
        sql`
          UPDATE api_keys SET revoked_at = ${now}::timestamptz
          WHERE prefix = ${prefix} AND kind = 'secret' AND revoked_at IS NULL
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
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
