// Retornos as a bank writes them, for the reader's tests: built with the package's own tables (the local bank, an
// independent program, writes the ones the end-to-end tests read).
import { CobrancaRecords, FileRecords, PagamentosRecords, Record, Values } from "../../src/index.js"
import { agreement } from "./Fixtures.js"

export interface Answer {
  readonly movement: string
  readonly ourNumber: string
  readonly amount?: number
  readonly reasons?: string
  readonly paid?: number
  readonly net?: number
  readonly fee?: number
}

export const answer = (answer: Answer) => answer

/** A cobrança retorno of the bank's file 42, with one batch of `answers`, each a segment T and a U. */
export const retornoOf = (answers: ReadonlyArray<Answer>): string => {
  const batch = "0001"
  const details = answers.flatMap((answer, index) => [
    Record.write(CobrancaRecords.segmentT, {
      bankCode: agreement.bankCode,
      batch,
      sequenceInBatch: 2 * index + 1,
      movement: answer.movement,
      agency: agreement.agency,
      account: agreement.account,
      accountDigit: agreement.accountDigit,
      ourNumber: answer.ourNumber,
      wallet: "1",
      documentNumber: answer.ourNumber,
      dueDate: "02122026",
      amount: answer.amount ?? 0,
      companyReference: `inv-${answer.ourNumber}`,
      fee: answer.fee ?? 0,
      reasons: answer.reasons ?? ""
    }),
    Record.write(CobrancaRecords.segmentU, {
      bankCode: agreement.bankCode,
      batch,
      sequenceInBatch: 2 * index + 2,
      movement: answer.movement,
      paid: answer.paid ?? 0,
      net: answer.net ?? 0,
      occurredOn: "01122026",
      creditedOn: answer.paid === undefined ? 0 : "02122026"
    })
  ])
  return Values.joinLines([
    Record.write(FileRecords.fileHeader, {
      bankCode: agreement.bankCode,
      direction: FileRecords.directions.retorno,
      createdOn: "01122026",
      createdAt: "060000",
      sequence: 42
    }),
    Record.write(CobrancaRecords.batchHeader, { bankCode: agreement.bankCode, batch, operation: "T" }),
    ...details,
    Record.write(CobrancaRecords.batchTrailer, { bankCode: agreement.bankCode, batch, records: details.length + 2 }),
    Record.write(FileRecords.fileTrailer, {
      bankCode: agreement.bankCode,
      batches: 1,
      records: details.length + 4
    })
  ])
}

export interface PaymentAnswer {
  readonly reference: string
  readonly amount: number
  readonly occurrences: string
  readonly effectiveAmount?: number
  readonly endToEndId?: string
}

/** A payments retorno of the bank's file 43: a batch of pix answers (form 45), then one of TED answers (41). */
export const paymentsRetornoOf = (pix: ReadonlyArray<PaymentAnswer>, ted: ReadonlyArray<PaymentAnswer>): string => {
  const batchOf = (batchNumber: number, form: string, answers: ReadonlyArray<PaymentAnswer>) => {
    const batch = String(batchNumber).padStart(4, "0")
    const details = answers.flatMap((answer, index) => [
      Record.write(PagamentosRecords.segmentA, {
        bankCode: agreement.bankCode,
        batch,
        sequenceInBatch: 2 * index + 1,
        companyNumber: answer.reference,
        amount: answer.amount,
        effectiveDate: answer.effectiveAmount === undefined ? 0 : "30112026",
        effectiveAmount: answer.effectiveAmount ?? 0,
        occurrences: answer.occurrences
      }),
      form === PagamentosRecords.paymentForms.pix
        ? Record.write(PagamentosRecords.segmentBPix, {
            bankCode: agreement.bankCode,
            batch,
            sequenceInBatch: 2 * index + 2,
            initiation: "05",
            transactionId: answer.endToEndId ?? ""
          })
        : Record.write(PagamentosRecords.segmentB, {
            bankCode: agreement.bankCode,
            batch,
            sequenceInBatch: 2 * index + 2
          })
    ])
    return [
      Record.write(PagamentosRecords.batchHeader, { bankCode: agreement.bankCode, batch, paymentForm: form }),
      ...details,
      Record.write(PagamentosRecords.batchTrailer, { bankCode: agreement.bankCode, batch, records: details.length + 2 })
    ]
  }
  const batches = [batchOf(1, "45", pix), batchOf(2, "41", ted)]
  return Values.joinLines([
    Record.write(FileRecords.fileHeader, {
      bankCode: agreement.bankCode,
      direction: FileRecords.directions.retorno,
      sequence: 43
    }),
    ...batches.flat(),
    Record.write(FileRecords.fileTrailer, {
      bankCode: agreement.bankCode,
      batches: batches.length,
      records: batches.flat().length + 2
    })
  ])
}
