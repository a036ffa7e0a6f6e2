// A company's own bank account, where its withdrawals go (SPEC 12.2, 13.3): a bank by its COMPE code, an agency, an
// account with its check digit, and whether it is a checking (`corrente`) or savings (`poupanca`) account.
import { Result, Schema } from "effect"

export const BankType = Schema.Literals(["corrente", "poupanca"])
export type BankType = typeof BankType.Type

/**
 * The banks withdrawals are paid to, by COMPE code: the banks, cooperative banks and payment institutions most
 * Brazilian companies keep their accounts at. A code not here is refused rather than named wrongly.
 */
export const banks: ReadonlyMap<string, string> = new Map([
  ["001", "Banco do Brasil S.A."],
  ["003", "Banco da Amazônia S.A."],
  ["004", "Banco do Nordeste do Brasil S.A."],
  ["021", "Banestes S.A. Banco do Estado do Espírito Santo"],
  ["033", "Banco Santander (Brasil) S.A."],
  ["037", "Banco do Estado do Pará S.A."],
  ["041", "Banco do Estado do Rio Grande do Sul S.A."],
  ["047", "Banco do Estado de Sergipe S.A."],
  ["070", "BRB - Banco de Brasília S.A."],
  ["077", "Banco Inter S.A."],
  ["085", "Cooperativa Central de Crédito - Ailos"],
  ["104", "Caixa Econômica Federal"],
  ["133", "Cresol Confederação"],
  ["136", "Unicred do Brasil"],
  ["197", "Stone Instituição de Pagamento S.A."],
  ["208", "Banco BTG Pactual S.A."],
  ["212", "Banco Original S.A."],
  ["237", "Banco Bradesco S.A."],
  ["246", "Banco ABC Brasil S.A."],
  ["260", "Nu Pagamentos S.A."],
  ["290", "PagSeguro Internet S.A."],
  ["318", "Banco BMG S.A."],
  ["323", "Mercado Pago Instituição de Pagamento Ltda."],
  ["336", "Banco C6 S.A."],
  ["341", "Itaú Unibanco S.A."],
  ["380", "PicPay Instituição de Pagamento S.A."],
  ["389", "Banco Mercantil do Brasil S.A."],
  ["403", "Cora Sociedade de Crédito Direto S.A."],
  ["422", "Banco Safra S.A."],
  ["623", "Banco Pan S.A."],
  ["633", "Banco Rendimento S.A."],
  ["655", "Banco Votorantim S.A."],
  ["707", "Banco Daycoval S.A."],
  ["735", "Banco Neon S.A."],
  ["745", "Banco Citibank S.A."],
  ["746", "Banco Modal S.A."],
  ["748", "Banco Cooperativo Sicredi S.A."],
  ["756", "Banco Cooperativo Sicoob S.A."]
])

export interface BankAccount {
  /** The bank's 3-digit COMPE code. */
  readonly code: string
  readonly name: string
  /** Digits, without the agency's check digit. */
  readonly agency: string
  /** Digits, without the account's check digit. */
  readonly account: string
  /** The account's check digit: a digit, or `X`. */
  readonly digit: string
  readonly type: BankType
}

/** A bank account as a person writes it: separators allowed, the check digit in its own field. */
export interface BankAccountInput {
  readonly bankCode: string
  readonly agency: string
  readonly account: string
  readonly digit: string
  readonly type: BankType
}

export class InvalidBankAccount extends Schema.TaggedError<InvalidBankAccount>()("InvalidBankAccount", {
  field: Schema.Literals(["bankCode", "agency", "account", "digit"]),
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

const refuse = (field: InvalidBankAccount["field"], reason: string) =>
  Result.fail(new InvalidBankAccount({ field, reason }))

/** The digits of `value` once spaces, dots and hyphens are left out; undefined when anything else is in it. */
const digitsOf = (value: string) => {
  const stripped = value.replace(/[\s.-]/g, "")
  return /^\d+$/.test(stripped) ? stripped : undefined
}

export const parse = (input: BankAccountInput): Result.Result<BankAccount, InvalidBankAccount> => {
  if (!/^\d{3}$/.test(input.bankCode)) return refuse("bankCode", "the bank code is the bank's 3-digit COMPE code")
  const bankName = banks.get(input.bankCode)
  if (bankName === undefined) return refuse("bankCode", `no bank Fatura pays to has the code ${input.bankCode}`)
  const agency = digitsOf(input.agency)
  if (agency === undefined || agency.length > 5) return refuse("agency", "the agency is 1 to 5 digits")
  const account = digitsOf(input.account)
  if (account === undefined || account.length > 12) {
    return refuse("account", "the account is 1 to 12 digits, without its check digit")
  }
  if (!/^[\dXx]$/.test(input.digit)) return refuse("digit", "the check digit is one digit, or X")
  return Result.succeed({
    code: input.bankCode,
    name: bankName,
    agency,
    account,
    digit: input.digit.toUpperCase(),
    type: input.type
  })
}
