// Remessas as Fatura writes them (its @fatura/cnab240), for the bank's client: boletos with valid payers, and payments.
import { Cobranca, Pagamentos } from "@fatura/cnab240"

export const agreementOf = (env: Readonly<Record<string, string>>): Cobranca.Agreement => ({
  bankCode: env.FATURA_BANK_CODE!,
  bankName: env.FATURA_BANK_NAME!,
  companyDocument: env.FATURA_BANK_COMPANY_CNPJ!,
  companyName: env.FATURA_BANK_COMPANY_NAME!,
  agreement: env.FATURA_BANK_AGREEMENT!,
  agency: env.FATURA_BANK_AGENCY!,
  agencyDigit: "",
  account: env.FATURA_BANK_ACCOUNT!,
  accountDigit: env.FATURA_BANK_ACCOUNT_DIGIT!,
  wallet: env.FATURA_BANK_WALLET!
})

export const written = { date: "2026-11-30", time: "09:00:00" }

export const payer: Cobranca.Payer = {
  document: "52998224725",
  name: "Maria da Conceição Souza",
  address: "Rua das Laranjeiras, 120",
  district: "Laranjeiras",
  zip: "22240003",
  city: "Rio de Janeiro",
  state: "RJ"
}

export const boleto = (
  ourNumber: string,
  amount = 12_345,
  overrides: Partial<Cobranca.Boleto> = {}
): Cobranca.Boleto => ({
  ourNumber,
  documentNumber: ourNumber,
  companyReference: `invoice-${ourNumber}`,
  issuedOn: "2026-11-30",
  dueDate: "2026-12-03",
  amount,
  payer,
  ...overrides
})

export const registering = (
  env: Readonly<Record<string, string>>,
  sequence: number,
  boletos: ReadonlyArray<Cobranca.Boleto>
) =>
  Cobranca.remessa({
    agreement: agreementOf(env),
    sequence,
    written,
    instructions: boletos.map((one) => ({ _tag: "Register", boleto: one }) as const)
  })

export const payment = (reference: string, form: Pagamentos.Form, amount = 10_000): Pagamentos.Payment => ({
  reference,
  form,
  payee: {
    bankCode: form === "creditInAccount" ? "999" : "001",
    agency: "1234",
    account: "5678901",
    accountDigit: "2",
    accountType: "corrente",
    name: "Padaria São João Ltda",
    document: "11444777000161"
  },
  amount,
  paymentDate: "2026-11-30"
})

export const paying = (
  env: Readonly<Record<string, string>>,
  sequence: number,
  payments: ReadonlyArray<Pagamentos.Payment>
) => Pagamentos.remessa({ account: agreementOf(env), sequence, written, payments })
