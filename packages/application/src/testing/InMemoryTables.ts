// The rows the in-memory ports keep, as immutable tables: one value is one committed state of the whole database,
// and a change is a function from one state to the next. Reading a row back gives what the SQL adapters give: an
// invoice with its client as it is now, its ledger entries and refunds in order, JSON columns as JSON gives them.
import { type Company, type Invoice, Ledger, type Receivable, type Timestamp, type Withdrawal } from "@fatura/domain"
import type { CardCharge } from "../cards/CardChargeRepository.js"
import type { VaultedCard } from "../cards/CardTokenRepository.js"
import type { ApiKeyRecord } from "../companies/CompanyRepository.js"
import type { PixRejection } from "../pix/PixReturnRepository.js"
import * as Clock from "../platform/Clock.js"
import type { Delivery } from "../postbacks/PostbackRepository.js"
import type { Endpoint } from "../postbacks/WebhookEndpointRepository.js"
import type { BankFileRow, BankPayoutRow, BoletoRegistrationRow, PixChargeRemovalRow } from "./InMemoryBankTables.js"

export interface CompanyRow extends Omit<Company.Company, "isActive3ds"> {
  readonly threeDsActivatedAt: Timestamp.Timestamp | null
  readonly threeDsUpdatedAt: Timestamp.Timestamp | null
  /** The last day the sweep looked at its automatic withdrawals. */
  readonly autoWithdrawalCheckedOn: string | null
}

export interface ApiKeyRow extends ApiKeyRecord {
  readonly hash: string
  readonly publicToken: string | null
}

export interface ClientRow extends Invoice.Client {
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
}

export interface CardReferenceRow extends Invoice.CardAssociate {
  readonly companyId: Company.CompanyId
  readonly firstDigits: string
  readonly expirationMonth: number
  readonly expirationYear: number
}

/**
 * An invoice refers to its client and card reference; they are joined as they are when it is read. Its receivables
 * are kept with it, and read apart (the ReceivableRepository), as the SQL adapter keeps them in a table of their own.
 */
export interface InvoiceRow extends Omit<Invoice.Invoice, "client" | "cardAssociate" | "refunds"> {
  readonly clientId: Invoice.ClientId
  readonly cardReferenceId: number | null
  readonly refunds: ReadonlyArray<RefundRow>
  readonly receivables: ReadonlyArray<ReceivableRow>
}

export interface ReceivableRow extends Receivable.Receivable {
  readonly anticipationFee: number
  readonly createdAt: Timestamp.Timestamp
  readonly updatedAt: Timestamp.Timestamp
}

export interface RefundRow extends Invoice.RefundRecord {
  /** Ours, for a refund asked of a provider that answers later. */
  readonly returnId: string | null
}

export interface EventRow {
  readonly id: string
  /** The order events were recorded in, across the whole database. */
  readonly seq: number
  readonly companyId: Company.CompanyId
  /** None for a withdrawal's event. */
  readonly invoiceId: Invoice.InvoiceId | null
  readonly type: string
  readonly livemode: boolean
  readonly data: unknown
  readonly createdAt: Timestamp.Timestamp
  readonly reason: string | null
}

export interface DeliveryRow extends Delivery {
  readonly companyId: Company.CompanyId
  readonly leaseUntil: Timestamp.Timestamp | null
  readonly leasedBy: string | null
}

export interface CardTokenRow extends VaultedCard {
  readonly tokenHash: string
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  readonly createdAt: Timestamp.Timestamp
  readonly expiresAt: Timestamp.Timestamp
  readonly usedAt: Timestamp.Timestamp | null
}

export interface IdempotencyRow {
  readonly principal: string
  readonly companyId: Company.CompanyId | null
  readonly endpoint: string
  readonly key: string
  readonly requestHash: string
  /** Unset while a leased request runs. */
  readonly response: { readonly status: number; readonly body: string } | null
  readonly leaseToken: string | null
  readonly leaseUntil: Timestamp.Timestamp | null
  readonly recoveryPoint: string | null
  readonly createdAt: Timestamp.Timestamp
}

export interface CardChargeRow extends CardCharge {
  readonly settledAt: Timestamp.Timestamp | null
  readonly reversedAt: Timestamp.Timestamp | null
}

export interface WebhookSecretRow {
  readonly id: number
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  readonly secret: string
  readonly createdAt: Timestamp.Timestamp
  /** Unset for the current secret; a rolled one signs until then. */
  readonly signsUntil: Timestamp.Timestamp | null
}

/** A withdrawal with the ledger entries that drew it and gave it back, and when the sweep is to look at it next. */
export interface WithdrawalRow extends Withdrawal.Withdrawal {
  readonly movements: ReadonlyArray<Invoice.Movement>
  readonly nextCheckAt: Timestamp.Timestamp | null
}

export interface WebhookEndpointRow extends Endpoint {
  /** Set once it is deleted: it receives nothing more, and the deliveries made for it still name it. */
  readonly deletedAt: Timestamp.Timestamp | null
}

export interface Tables {
  readonly companies: ReadonlyMap<number, CompanyRow>
  readonly apiKeys: ReadonlyMap<number, ApiKeyRow>
  readonly clients: ReadonlyMap<number, ClientRow>
  readonly cardReferences: ReadonlyMap<number, CardReferenceRow>
  readonly invoices: ReadonlyMap<number, InvoiceRow>
  readonly events: ReadonlyMap<string, EventRow>
  readonly deliveries: ReadonlyMap<number, DeliveryRow>
  readonly cardTokens: ReadonlyMap<string, CardTokenRow>
  /** Keyed by principal, endpoint and key together. */
  readonly idempotencyKeys: ReadonlyMap<string, IdempotencyRow>
  readonly cardCharges: ReadonlyMap<string, CardChargeRow>
  readonly webhookSecrets: ReadonlyMap<number, WebhookSecretRow>
  readonly webhookEndpoints: ReadonlyMap<string, WebhookEndpointRow>
  readonly withdrawals: ReadonlyMap<string, WithdrawalRow>
  /** By invoice id: the boletos a bank registers from its files. */
  readonly boletoRegistrations: ReadonlyMap<number, BoletoRegistrationRow>
  /** By name. */
  readonly bankFiles: ReadonlyMap<string, BankFileRow>
  /** By reference. */
  readonly bankPayouts: ReadonlyMap<string, BankPayoutRow>
  /** How far each provider's received pix were listed, by provider. */
  readonly pixReconciliations: ReadonlyMap<string, Timestamp.Timestamp>
  /** Received pix that paid nothing, by end-to-end id, with their return. */
  readonly pixRejections: ReadonlyMap<string, PixRejection>
  /** The pix charges to remove at the provider, by txid. */
  readonly pixChargeRemovals: ReadonlyMap<string, PixChargeRemovalRow>
}

export const empty: Tables = {
  companies: new Map(),
  apiKeys: new Map(),
  clients: new Map(),
  cardReferences: new Map(),
  invoices: new Map(),
  events: new Map(),
  deliveries: new Map(),
  cardTokens: new Map(),
  idempotencyKeys: new Map(),
  cardCharges: new Map(),
  webhookSecrets: new Map(),
  webhookEndpoints: new Map(),
  withdrawals: new Map(),
  boletoRegistrations: new Map(),
  bankFiles: new Map(),
  bankPayouts: new Map(),
  pixReconciliations: new Map(),
  pixRejections: new Map(),
  pixChargeRemovals: new Map()
}

type RowOf<T extends keyof Tables> = Tables[T] extends ReadonlyMap<unknown, infer Row> ? Row : never
type KeyOf<T extends keyof Tables> = Tables[T] extends ReadonlyMap<infer Key, unknown> ? Key : never

/** The change that stores `row` under `key` in `table`, replacing the row that was there. */
export const put =
  <T extends keyof Tables>(table: T, key: KeyOf<T>, row: RowOf<T>) =>
  (tables: Tables): Tables => ({ ...tables, [table]: new Map(tables[table] as Map<KeyOf<T>, RowOf<T>>).set(key, row) })

/** The change that removes the row under `key` from `table`. */
export const remove =
  <T extends keyof Tables>(table: T, key: KeyOf<T>) =>
  (tables: Tables): Tables => {
    const rows = new Map(tables[table] as Map<KeyOf<T>, RowOf<T>>)
    rows.delete(key)
    return { ...tables, [table]: rows }
  }

/** A value as a JSON column gives it back: a copy, without the fields JSON has no place for. */
export const asJson = <A>(value: A): A => JSON.parse(JSON.stringify(value)) as A

export const toCompany = ({
  threeDsActivatedAt,
  threeDsUpdatedAt: _,
  autoWithdrawalCheckedOn: __,
  ...row
}: CompanyRow): Company.Company => ({
  ...row,
  isActive3ds: threeDsActivatedAt !== null
})

export const toApiKey = ({ hash: _, publicToken: __, ...record }: ApiKeyRow): ApiKeyRecord => record

export const toClient = ({ companyId: _, mode: __, ...client }: ClientRow): Invoice.Client => client

const byId = <A extends { readonly id: number }>(rows: ReadonlyArray<A>) => [...rows].sort((a, b) => a.id - b.id)

/** The invoice as the SQL adapter reads it: joined with its client and card reference as they are now. */
export const toInvoice = (
  tables: Tables,
  { clientId, cardReferenceId, receivables: _, ...row }: InvoiceRow
): Invoice.Invoice => {
  const reference = cardReferenceId === null ? undefined : tables.cardReferences.get(cardReferenceId)
  return {
    ...row,
    // As the SQL adapter reads it: from the registration, if a bank registers the boleto; the sandbox's at once.
    boleto:
      row.boleto === null
        ? null
        : { ...row.boleto, registration: tables.boletoRegistrations.get(row.id)?.status ?? "registered" },
    client: toClient(tables.clients.get(clientId)!),
    cardAssociate:
      reference === undefined
        ? null
        : {
            id: reference.id,
            brand: reference.brand,
            lastDigits: reference.lastDigits,
            clientId,
            createdAt: reference.createdAt
          },
    movements: byId(row.movements),
    refunds: byId(row.refunds).map(({ returnId: _, ...refund }) => refund)
  }
}

/** The São Paulo calendar month (YYYY-MM) of an instant: the month a payment counts in. */
const paidMonth = (at: Timestamp.Timestamp) => Clock.businessDate(at).slice(0, 7)

/**
 * The company's balances and paid totals in one mode, from its ledger entries and paid invoices, with the month
 * of `now` as the competition month.
 */
export const totalsOf = (
  tables: Tables,
  companyId: Company.CompanyId,
  mode: Invoice.Mode,
  now: Timestamp.Timestamp
): Company.CompanyTotals => {
  const balances = { pix: 0, card: 0, bank_slip: 0 }
  const waiting = { pix: 0, card: 0, bank_slip: 0 }
  let paidTotal = 0
  let paidThisMonth = 0
  const month = paidMonth(now)
  for (const invoice of tables.invoices.values()) {
    if (invoice.companyId !== companyId || invoice.mode !== mode) continue
    for (const entry of invoice.movements) {
      ;(entry.bucket === "available" ? balances : waiting)[entry.balance] += Ledger.signed(entry)
    }
    if (invoice.paidAt !== null) {
      paidTotal += invoice.amount
      if (paidMonth(invoice.paidAt) === month) paidThisMonth += invoice.amount
    }
  }
  for (const withdrawal of tables.withdrawals.values()) {
    if (withdrawal.companyId !== companyId || withdrawal.mode !== mode) continue
    for (const entry of withdrawal.movements) {
      ;(entry.bucket === "available" ? balances : waiting)[entry.balance] += Ledger.signed(entry)
    }
  }
  return {
    balancePix: balances.pix,
    balanceCard: balances.card,
    balanceBankSlip: balances.bank_slip,
    waitingPix: waiting.pix,
    waitingCard: waiting.card,
    waitingBankSlip: waiting.bank_slip,
    amountInvoiceTotal: paidTotal,
    amountInvoicesCompeticion: paidThisMonth
  }
}
