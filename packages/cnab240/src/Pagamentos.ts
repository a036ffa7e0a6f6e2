// Pagamentos (service 20): the remessa that pays amounts into accounts — by credit in account at the same bank (01),
// TED (41) or pix by the account's details (45), one batch per form — and the retorno that says what became of each
// payment: paid (with the pix's end-to-end id), still to be paid, or refused and why (FEBRABAN's table G059).
import { Result } from "effect"
import { assemble, frameOf, headerLine, MalformedFile, readLine } from "./CnabFile.js"
import {
  batchHeader,
  batchTrailer,
  clearings,
  paymentForms,
  pixInitiations,
  segmentA,
  segmentB,
  segmentBPix
} from "./layout/PagamentosRecords.js"
import * as Record from "./Record.js"
import { type BankAccount, dateField, dateOf, documentTypeOf, documentTypes, numberOf, type Written } from "./Values.js"

export type Form = keyof typeof paymentForms

export interface Payee {
  readonly bankCode: string
  readonly agency: string
  /** Digits, without the account's check digit. */
  readonly account: string
  readonly accountDigit: string
  readonly accountType: "corrente" | "poupanca"
  readonly name: string
  /** CPF or CNPJ, digits. */
  readonly document: string
}

export interface Payment {
  /** `Nº do Docum. Atribuído p/ Empresa`: how the retorno names the payment back, at most 20 characters. */
  readonly reference: string
  readonly form: Form
  readonly payee: Payee
  /** Cents. */
  readonly amount: number
  readonly paymentDate: string
}

/** The order in which a remessa's batches are written, one per form. */
const formOrder: ReadonlyArray<Form> = ["creditInAccount", "ted", "pix"]

/** `Código Finalidade da TED` 00010, a credit in account; `Complemento de Finalidade`: checking or savings account. */
const tedPurpose = "00010"
const accountPurposes = { corrente: "CC", poupanca: "PP" } as const

const batchOf = (account: BankAccount, batch: string, form: Form, payments: ReadonlyArray<Payment>) => {
  const details = payments.flatMap((payment, index) => {
    const common = { bankCode: account.bankCode, batch }
    const a = Record.write(segmentA, {
      ...common,
      sequenceInBatch: 2 * index + 1,
      // 0 and 00: a new payment, released.
      movementType: "0",
      instruction: "00",
      clearing: clearings[form],
      payeeBank: payment.payee.bankCode,
      payeeAgency: payment.payee.agency,
      payeeAccount: payment.payee.account,
      payeeAccountDigit: payment.payee.accountDigit,
      payeeName: payment.payee.name,
      companyNumber: payment.reference,
      paymentDate: dateField(payment.paymentDate),
      currencyType: "BRL",
      amount: payment.amount,
      tedPurpose: form === "ted" ? tedPurpose : "",
      paymentPurpose: accountPurposes[payment.payee.accountType],
      payeeNotice: "0"
    })
    const payee = {
      ...common,
      sequenceInBatch: 2 * index + 2,
      payeeDocumentType: documentTypeOf(payment.payee.document),
      payeeDocument: payment.payee.document
    }
    const b =
      form === "pix"
        ? Record.write(segmentBPix, { ...payee, initiation: pixInitiations.accountDetails })
        : Record.write(segmentB, payee)
    return [a, b]
  })
  return [
    Record.write(batchHeader, {
      bankCode: account.bankCode,
      batch,
      paymentForm: paymentForms[form],
      companyDocumentType: documentTypes.cnpj,
      companyDocument: account.companyDocument,
      agreement: account.agreement,
      agency: account.agency,
      agencyDigit: account.agencyDigit,
      account: account.account,
      accountDigit: account.accountDigit,
      companyName: account.companyName,
      // 01: the payments are debited from the account.
      paymentIndicator: "01"
    }),
    ...details,
    Record.write(batchTrailer, {
      bankCode: account.bankCode,
      batch,
      records: details.length + 2,
      total: payments.reduce((sum, payment) => sum + payment.amount, 0)
    })
  ]
}

/** The remessa paying `payments` from the account, as its file `sequence`: a batch for each form among them. */
export const remessa = (input: {
  readonly account: BankAccount
  readonly sequence: number
  readonly written: Written
  readonly payments: ReadonlyArray<Payment>
}): string => {
  const forms = formOrder.filter((form) => input.payments.some((payment) => payment.form === form))
  const batches = forms.map((form, index) =>
    batchOf(
      input.account,
      String(index + 1).padStart(4, "0"),
      form,
      input.payments.filter((payment) => payment.form === form)
    )
  )
  return assemble(input.account.bankCode, headerLine(input.account, "remessa", input.sequence, input.written), batches)
}

/** Codes of FEBRABAN's table G059 that say how a payment stands. */
export const occurrenceCodes = {
  /** `Crédito ou Débito Efetivado`: paid. */
  paid: "00",
  /** `Inclusão Efetuada com Sucesso`: accepted, to be paid. */
  accepted: "BD"
} as const

/** What the bank says of one payment in a retorno. */
export interface Outcome {
  readonly reference: string
  readonly form: Form
  /** Cents asked for. */
  readonly amount: number
  /** `Códigos das Ocorrências para Retorno`: up to five codes of table G059. */
  readonly occurrences: ReadonlyArray<string>
  readonly effectiveDate: string | null
  /** Cents paid. */
  readonly effectiveAmount: number
  /** The pix's end-to-end id, for a pix paid. */
  readonly endToEndId: string | null
}

export interface Retorno {
  readonly bankCode: string
  readonly sequence: number
  readonly outcomes: ReadonlyArray<Outcome>
}

const codesOf = (field: string): ReadonlyArray<string> =>
  (field.match(/.{1,2}/g) ?? []).filter((code) => code.trim() !== "")

const formOf = (code: string): Form | undefined =>
  (Object.keys(paymentForms) as ReadonlyArray<Form>).find((form) => paymentForms[form] === code)

/** Reads a payments retorno: each payment a segment A and its B, in batches of one form each. */
export const retorno = (text: string): Result.Result<Retorno, MalformedFile> =>
  Result.gen(function* () {
    const frame = yield* frameOf(text, "retorno")
    const outcomes: Array<Outcome> = []
    for (const batch of frame.batches) {
      const header = yield* readLine(batchHeader, batch.header)
      yield* readLine(batchTrailer, batch.trailer)
      const form = formOf(header.paymentForm)
      if (form === undefined) {
        return yield* Result.fail(
          new MalformedFile({
            line: batch.header.number,
            field: batchHeader.paymentForm.name,
            reason: `${header.paymentForm} is no form Fatura pays by`
          })
        )
      }
      for (let index = 0; index < batch.details.length; index += 2) {
        const aLine = batch.details[index]!
        const bLine = batch.details[index + 1]
        const a = yield* readLine(segmentA, aLine)
        if (bLine === undefined) {
          return yield* Result.fail(
            new MalformedFile({ line: aLine.number, field: null, reason: "a segment A without its segment B" })
          )
        }
        // A pix's segment B carries its end-to-end id; another form's, the payee's address.
        const transactionId = form === "pix" ? (yield* readLine(segmentBPix, bLine)).transactionId : ""
        if (form !== "pix") yield* readLine(segmentB, bLine)
        outcomes.push({
          reference: a.companyNumber,
          form,
          amount: numberOf(a.amount),
          occurrences: codesOf(a.occurrences),
          effectiveDate: dateOf(a.effectiveDate),
          effectiveAmount: numberOf(a.effectiveAmount),
          endToEndId: transactionId === "" ? null : transactionId
        })
      }
    }
    return { bankCode: frame.header.bankCode, sequence: numberOf(frame.header.sequence), outcomes }
  })
