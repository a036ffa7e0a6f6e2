// What the tests write files for: the platform's account at a bank, boletos with their payers, and payments.
import type { Cobranca, Pagamentos, Values } from "../../src/index.js"

export const agreement: Cobranca.Agreement = {
  bankCode: "341",
  bankName: "Itaú Unibanco S.A.",
  companyDocument: "11222333000181",
  companyName: "Fatura Pagamentos Ltda",
  agreement: "1234567",
  agency: "0057",
  agencyDigit: "",
  account: "72192",
  accountDigit: "1",
  wallet: "1"
}

export const account: Values.BankAccount = agreement

export const written: Values.Written = { date: "2026-11-29", time: "10:15:30" }

export const payer: Cobranca.Payer = {
  document: "52998224725",
  name: "Maria da Conceição Souza",
  address: "Rua das Laranjeiras, 120, apto 31",
  district: "Laranjeiras",
  zip: "22240003",
  city: "Rio de Janeiro",
  state: "RJ"
}

export const boleto = (n: number, overrides: Partial<Cobranca.Boleto> = {}): Cobranca.Boleto => ({
  ourNumber: String(1000 + n),
  documentNumber: String(500 + n),
  companyReference: `inv-${n}`,
  issuedOn: "2026-11-29",
  dueDate: "2026-12-02",
  amount: 12_345 * n,
  payer,
  ...overrides
})

export const payment = (n: number, form: Pagamentos.Form, overrides: Partial<Pagamentos.Payment> = {}) =>
  ({
    reference: `WD${String(n).padStart(18, "0")}`,
    form,
    payee: {
      bankCode: form === "creditInAccount" ? "341" : "001",
      agency: "1234",
      account: "5678901",
      accountDigit: "2",
      accountType: "corrente",
      name: "Padaria São João Ltda",
      document: "11444777000161"
    },
    amount: 10_000 * n,
    paymentDate: "2026-11-30",
    ...overrides
  }) satisfies Pagamentos.Payment
