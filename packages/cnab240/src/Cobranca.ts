// Cobrança (service 01): the remessa that registers boletos at the bank, or asks it to write one off, and the retorno
// that says what became of each — registered, rejected with its reasons, paid (for how much, credited when) or
// written off. One batch per file; each boleto a segment P and Q (and R when it has a fine), each answer a T and a U.
import { Result } from "effect"
import { assemble, type Frame, frameOf, headerLine, type Line, MalformedFile, readLine } from "./CnabFile.js"
import {
  batchHeader,
  batchTrailer,
  segmentP,
  segmentQ,
  segmentR,
  segmentT,
  segmentU
} from "./layout/CobrancaRecords.js"
import * as Record from "./Record.js"
import { type BankAccount, dateField, dateOf, documentTypeOf, documentTypes, numberOf, type Written } from "./Values.js"

/** The account's cobrança agreement: its account, and the wallet its boletos are registered in. */
export interface Agreement extends BankAccount {
  /** `Código da Carteira`: 1 simple, registered cobrança. */
  readonly wallet: string
}

export interface Payer {
  /** CPF or CNPJ, digits. */
  readonly document: string
  readonly name: string
  /** Street, number and complement, as one line. */
  readonly address: string
  readonly district: string
  /** 8 digits. */
  readonly zip: string
  readonly city: string
  readonly state: string
}

export interface Boleto {
  /** `Nosso Número`: digits, at most 20. */
  readonly ourNumber: string
  /** `Número do Documento de Cobrança`: at most 15 characters. */
  readonly documentNumber: string
  /** `Identificação do Título na Empresa`: what the company reads back in every retorno, at most 25 characters. */
  readonly companyReference: string
  readonly issuedOn: string
  readonly dueDate: string
  /** Cents. */
  readonly amount: number
  readonly payer: Payer
  /** Cents a day after the due date, when interest is charged. */
  readonly interestPerDay?: number
  /** The fine after the due date, in hundredths of a percent (200 is 2 %), when one is charged. */
  readonly fineBasisPoints?: number
}

export type Instruction =
  | { readonly _tag: "Register"; readonly boleto: Boleto }
  | { readonly _tag: "WriteOff"; readonly boleto: Pick<Boleto, "ourNumber" | "documentNumber" | "dueDate" | "amount"> }

/** `Código de Movimento Remessa` of the instructions Fatura sends. */
export const remessaMovements = { register: "01", writeOff: "02" } as const

/** `Código de Movimento Retorno` of the answers Fatura acts on (FEBRABAN's table C044). */
export const retornoMovements = {
  entryConfirmed: "02",
  entryRejected: "03",
  paid: "06",
  writtenOff: "09",
  instructionRejected: "26"
} as const

const accountFields = (agreement: Agreement) => ({
  bankCode: agreement.bankCode,
  agency: agreement.agency,
  agencyDigit: agreement.agencyDigit,
  account: agreement.account,
  accountDigit: agreement.accountDigit
})

/** A detail record to be numbered: written once its place in the batch is known. */
type Detail = (sequenceInBatch: number) => string

const detailsOf = (agreement: Agreement, batch: string, instruction: Instruction): ReadonlyArray<Detail> => {
  const { boleto } = instruction
  const common = {
    ...accountFields(agreement),
    batch,
    ourNumber: boleto.ourNumber,
    wallet: agreement.wallet,
    documentNumber: boleto.documentNumber,
    dueDate: dateField(boleto.dueDate),
    amount: boleto.amount,
    currency: "09"
  }
  if (instruction._tag === "WriteOff") {
    return [
      (sequenceInBatch) => Record.write(segmentP, { ...common, sequenceInBatch, movement: remessaMovements.writeOff })
    ]
  }
  const registered = instruction.boleto
  const interest = registered.interestPerDay ?? 0
  const p: Detail = (sequenceInBatch) =>
    Record.write(segmentP, {
      ...common,
      sequenceInBatch,
      movement: remessaMovements.register,
      // Registered cobrança (1), a traditional slip (1), issued and delivered by the company (2, 2).
      registration: "1",
      documentKind: "1",
      issuance: "2",
      distribution: "2",
      // 17: a receipt (recibo); not accepted by the payer (N).
      kind: "17",
      accepted: "N",
      issuedOn: dateField(registered.issuedOn),
      // 1: an amount a day from the day after the due date; 3: no interest.
      interestCode: interest > 0 ? "1" : "3",
      interestFrom: interest > 0 ? dateField(nextDay(registered.dueDate)) : 0,
      interest,
      companyReference: registered.companyReference,
      // 3: never protested; 1: written off (and back to the company) 30 days after the due date.
      protestCode: "3",
      writeOffCode: "1",
      writeOffDays: "030"
    })
  const q: Detail = (sequenceInBatch) =>
    Record.write(segmentQ, {
      bankCode: agreement.bankCode,
      batch,
      sequenceInBatch,
      movement: remessaMovements.register,
      payerDocumentType: documentTypeOf(registered.payer.document),
      payerDocument: registered.payer.document,
      payerName: registered.payer.name,
      payerAddress: registered.payer.address,
      payerDistrict: registered.payer.district,
      payerZip: registered.payer.zip.slice(0, 5),
      payerZipSuffix: registered.payer.zip.slice(5, 8),
      payerCity: registered.payer.city,
      payerState: registered.payer.state,
      guarantorDocumentType: documentTypes.none
    })
  const fine = registered.fineBasisPoints
  if (fine === undefined) return [p, q]
  const r: Detail = (sequenceInBatch) =>
    Record.write(segmentR, {
      bankCode: agreement.bankCode,
      batch,
      sequenceInBatch,
      movement: remessaMovements.register,
      // 2: a percentage of the amount, from the day after the due date.
      fineCode: "2",
      fineFrom: dateField(nextDay(registered.dueDate)),
      fine
    })
  return [p, q, r]
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

/** The remessa of `instructions`, as file `sequence` of the agreement's account, written at `written`. */
export const remessa = (input: {
  readonly agreement: Agreement
  readonly sequence: number
  readonly written: Written
  readonly instructions: ReadonlyArray<Instruction>
}): string => {
  const { agreement } = input
  const batch = "0001"
  const details = input.instructions
    .flatMap((instruction) => detailsOf(agreement, batch, instruction))
    .map((detail, index) => detail(index + 1))
  const registered = input.instructions.filter((instruction) => instruction._tag === "Register")
  const lines = [
    Record.write(batchHeader, {
      batch,
      operation: "R",
      companyDocumentType: documentTypes.cnpj,
      companyDocument: agreement.companyDocument,
      agreement: agreement.agreement,
      ...accountFields(agreement),
      companyName: agreement.companyName,
      fileSequence: input.sequence,
      recordedOn: dateField(input.written.date)
    }),
    ...details,
    Record.write(batchTrailer, {
      bankCode: agreement.bankCode,
      batch,
      records: details.length + 2,
      simpleCount: registered.length,
      simpleTotal: registered.reduce((sum, instruction) => sum + instruction.boleto.amount, 0)
    })
  ]
  return assemble(agreement.bankCode, headerLine(agreement, "remessa", input.sequence, input.written), [lines])
}

/** What the bank says of one boleto in a retorno. */
export interface Occurrence {
  /** `Código de Movimento Retorno` (`retornoMovements`). */
  readonly movement: string
  readonly ourNumber: string
  readonly documentNumber: string
  readonly companyReference: string
  readonly dueDate: string | null
  /** The boleto's amount, cents. */
  readonly amount: number
  /** `Motivo da Ocorrência`: the reasons of a rejection (FEBRABAN's table C047), of a payment or a write-off. */
  readonly reasons: ReadonlyArray<string>
  /** What the payer paid, cents (0 but for a payment). */
  readonly paid: number
  /** What the bank credits the account, cents. */
  readonly credited: number
  /** The bank's fee for the occurrence, cents. */
  readonly fee: number
  readonly occurredOn: string | null
  readonly creditedOn: string | null
}

export interface Retorno {
  readonly bankCode: string
  /** `Número Seqüencial do Arquivo`: the bank's numbering of the files it sends. */
  readonly sequence: number
  readonly occurrences: ReadonlyArray<Occurrence>
}

const reasonsOf = (field: string): ReadonlyArray<string> =>
  (field.match(/.{1,2}/g) ?? []).filter((code) => code.trim() !== "" && code !== "00")

const occurrencesOf = (details: ReadonlyArray<Line>) =>
  Result.gen(function* () {
    const occurrences: Array<Occurrence> = []
    for (let index = 0; index < details.length; index += 2) {
      const tLine = details[index]!
      const uLine = details[index + 1]
      const t = yield* readLine(segmentT, tLine)
      if (uLine === undefined) {
        return yield* Result.fail(
          new MalformedFile({ line: tLine.number, field: null, reason: "a segment T without its segment U" })
        )
      }
      const u = yield* readLine(segmentU, uLine)
      if (u.movement !== t.movement) {
        return yield* Result.fail(
          new MalformedFile({
            line: uLine.number,
            field: segmentU.movement.name,
            reason: `${u.movement} where its segment T says ${t.movement}`
          })
        )
      }
      occurrences.push({
        movement: t.movement,
        ourNumber: t.ourNumber.trim(),
        documentNumber: t.documentNumber,
        companyReference: t.companyReference,
        dueDate: dateOf(t.dueDate),
        amount: numberOf(t.amount),
        reasons: reasonsOf(t.reasons),
        paid: numberOf(u.paid),
        credited: numberOf(u.net),
        fee: numberOf(t.fee),
        occurredOn: dateOf(u.occurredOn),
        creditedOn: dateOf(u.creditedOn)
      })
    }
    return occurrences
  })

/** Reads a cobrança retorno: every batch a cobrança batch, every answer a segment T and its U. */
export const retorno = (text: string): Result.Result<Retorno, MalformedFile> =>
  Result.gen(function* () {
    const frame: Frame = yield* frameOf(text, "retorno")
    const occurrences: Array<Occurrence> = []
    for (const batch of frame.batches) {
      yield* readLine(batchHeader, batch.header)
      yield* readLine(batchTrailer, batch.trailer)
      occurrences.push(...(yield* occurrencesOf(batch.details)))
    }
    return { bankCode: frame.header.bankCode, sequence: numberOf(frame.header.sequence), occurrences }
  })
