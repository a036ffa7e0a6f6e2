// The merchant: its registration, bank account, fee plan, blocks and 3-D Secure state.
import { Schema } from "effect"
import type { Schedule } from "./AutoWithdrawal.js"
import type { BankAccount } from "./BankAccount.js"
import type { FeePlan } from "./FeePlan.js"
import { balanceOf, type Entry } from "./Ledger.js"
import type { BalanceKind, PaymentMethod } from "./PaymentMethod.js"
import type { Timestamp } from "./Timestamp.js"

export const CompanyId = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1)), Schema.brand("CompanyId"))
export type CompanyId = typeof CompanyId.Type

export const BlockKind = Schema.Literals(["system", "processing", "pix", "card", "bank_slip", "sake"])
export type BlockKind = typeof BlockKind.Type

export type Blocks = { readonly [K in BlockKind]: boolean }

export interface Company {
  readonly id: CompanyId
  /** Digits, or the 2026 alphanumeric form, without formatting. */
  readonly cnpj: string
  readonly companyType: string
  readonly corporateReason: string
  readonly fantasyName: string
  readonly urlWebsite: string
  readonly email: string
  readonly address: {
    readonly street: string
    readonly number: string
    readonly city: string
    readonly postalCode: string
    readonly province: string
    readonly state: string
  }
  /** Its own bank account, where withdrawals go; every field is "" (and the type `corrente`) while it has none. */
  readonly bank: BankAccount
  /** When its available money goes out by itself (SPEC 13.4); `off` unless the CLI set a schedule. */
  readonly autoWithdrawal: Schedule
  readonly blocks: Blocks
  readonly feePlan: FeePlan
  readonly isCustomFeePlan: boolean
  readonly pixKey: string
  readonly isActive3ds: boolean
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
}

/**
 * Balances and paid totals, all derived from the ledger and the invoices (SPEC 5.3, 7.4): `balance*` what is
 * available, `waiting*` what its receivables will make available when they fall due.
 */
export interface CompanyTotals {
  readonly balancePix: number
  readonly balanceCard: number
  readonly balanceBankSlip: number
  readonly waitingPix: number
  readonly waitingCard: number
  readonly waitingBankSlip: number
  readonly amountInvoiceTotal: number
  readonly amountInvoicesCompeticion: number
}

/**
 * The totals after an invoice's move, from the totals before it (read under the company's ledger lock, with the
 * competition month of the move's instant): its ledger entries added to their balances, and the amount it `paid`
 * with this move (0 when it paid nothing now) to the paid totals of all time and of the month.
 */
export const totalsAfter = (totals: CompanyTotals, entries: ReadonlyArray<Entry>, paid: number): CompanyTotals => ({
  balancePix: totals.balancePix + balanceOf(entries, "pix", "available"),
  balanceCard: totals.balanceCard + balanceOf(entries, "card", "available"),
  balanceBankSlip: totals.balanceBankSlip + balanceOf(entries, "bank_slip", "available"),
  waitingPix: totals.waitingPix + balanceOf(entries, "pix", "waiting"),
  waitingCard: totals.waitingCard + balanceOf(entries, "card", "waiting"),
  waitingBankSlip: totals.waitingBankSlip + balanceOf(entries, "bank_slip", "waiting"),
  amountInvoiceTotal: totals.amountInvoiceTotal + paid,
  amountInvoicesCompeticion: totals.amountInvoicesCompeticion + paid
})

export const zeroTotals: CompanyTotals = {
  balancePix: 0,
  balanceCard: 0,
  balanceBankSlip: 0,
  waitingPix: 0,
  waitingCard: 0,
  waitingBankSlip: 0,
  amountInvoiceTotal: 0,
  amountInvoicesCompeticion: 0
}

/** The available balance of a method's kind (SPEC 7.4). */
export const availableOf = (totals: CompanyTotals, balance: BalanceKind): number => {
  switch (balance) {
    case "pix":
      return totals.balancePix
    case "card":
      return totals.balanceCard
    case "bank_slip":
      return totals.balanceBankSlip
  }
}

const methodBlock: Record<PaymentMethod, BlockKind> = {
  pix: "pix",
  bank_slip: "bank_slip",
  credit_card: "card"
}

/** The block that forbids creating an invoice of this method, if any (SPEC 7.5). */
export const creationBlock = (blocks: Blocks, method: PaymentMethod): BlockKind | undefined => {
  if (blocks.system) return "system"
  if (blocks.processing) return "processing"
  const kind = methodBlock[method]
  return blocks[kind] ? kind : undefined
}
