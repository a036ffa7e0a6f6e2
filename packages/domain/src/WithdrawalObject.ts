// The JSON shape in which Fatura shows a withdrawal (SPEC 13.3): in its API's answers and as the `data` of its events.
import { Schema } from "effect"
import { BankType } from "./BankAccount.js"
import * as Document from "./Document.js"
import { BalanceKind } from "./PaymentMethod.js"
import { Timestamp } from "./Timestamp.js"
import { type Withdrawal, WithdrawalStatus } from "./Withdrawal.js"

const Cents = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({ description: "Cents." })

export const WithdrawalSource = Schema.Struct({
  balance: BalanceKind,
  amount: Cents.annotate({ description: "Cents of the amount and the fee drawn from this balance." })
}).annotate({ identifier: "WithdrawalSource" })

export const WithdrawalDestination = Schema.Struct({
  bank_code: Schema.String.annotate({ description: "The 3-digit COMPE code of the bank." }),
  bank_name: Schema.String,
  agency: Schema.String,
  account: Schema.String,
  digit: Schema.String,
  type: BankType,
  holder_name: Schema.String,
  holder_document: Schema.String.annotate({ description: "The company's CNPJ, formatted." })
}).annotate({ identifier: "WithdrawalDestination" })

export const WithdrawalObject = Schema.Struct({
  id: Schema.String.annotate({ examples: ["wd_8c5e3f6a-2b1d-4c8e-9f7a-1d2e3f4a5b6c"] }),
  amount: Cents.annotate({ description: "Cents the bank account receives." }),
  fee: Cents.annotate({ description: "Cents the withdrawal cost, drawn with its amount." }),
  status: WithdrawalStatus,
  sources: Schema.Array(WithdrawalSource),
  destination: WithdrawalDestination,
  rail: Schema.NullOr(Schema.Literals(["pix", "ted"])),
  end_to_end_id: Schema.NullOr(Schema.String),
  failure_reason: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  updated_at: Timestamp,
  paid_at: Schema.NullOr(Timestamp),
  livemode: Schema.Boolean
}).annotate({ identifier: "Withdrawal" })
export type WithdrawalObject = typeof WithdrawalObject.Type

export const render = (withdrawal: Withdrawal): WithdrawalObject => ({
  id: withdrawal.id,
  amount: withdrawal.amount,
  fee: withdrawal.fee,
  status: withdrawal.status,
  sources: withdrawal.sources.map((source) => ({ balance: source.balance, amount: source.amount })),
  destination: {
    bank_code: withdrawal.destination.bank.code,
    bank_name: withdrawal.destination.bank.name,
    agency: withdrawal.destination.bank.agency,
    account: withdrawal.destination.bank.account,
    digit: withdrawal.destination.bank.digit,
    type: withdrawal.destination.bank.type,
    holder_name: withdrawal.destination.holderName,
    holder_document: Document.formatCnpj(withdrawal.destination.holderDocument)
  },
  rail: withdrawal.rail,
  end_to_end_id: withdrawal.endToEndId,
  failure_reason: withdrawal.failureReason,
  created_at: withdrawal.createdAt,
  updated_at: withdrawal.updatedAt,
  paid_at: withdrawal.paidAt,
  livemode: withdrawal.mode === "live"
})
