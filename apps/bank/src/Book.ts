// The local bank's book: the boletos registered under its client's agreement, the transfers it was asked to make,
// the answers waiting for the next retorno, and the simulator's rules. Kept as JSON in the bank's directory, written
// whole after every change (to a temporary file, then renamed), so that a restart loses nothing it acknowledged.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export type BoletoStatus = "registered" | "rejected" | "paid" | "written_off"

/** A boleto as its remessa described it, which the bank's answers repeat. */
export interface BoletoFacts {
  readonly ourNumber: string
  readonly documentNumber: string
  readonly companyReference: string
  readonly dueDate: string | null
  readonly amount: number
  readonly payerDocumentType: string
  readonly payerDocument: string
  readonly payerName: string
}

/** How the book files a boleto: its our number's value, whatever zeros a file or a barcode writes before it. */
export const keyOf = (ourNumber: string): string => ourNumber.replace(/^0+(?=\d)/, "")

/** The facts of a boleto, and nothing the bank keeps beside them. */
export const factsOf = (boleto: BoletoFacts): BoletoFacts => ({
  ourNumber: boleto.ourNumber,
  documentNumber: boleto.documentNumber,
  companyReference: boleto.companyReference,
  dueDate: boleto.dueDate,
  amount: boleto.amount,
  payerDocumentType: boleto.payerDocumentType,
  payerDocument: boleto.payerDocument,
  payerName: boleto.payerName
})

export interface BoletoEntry extends BoletoFacts {
  status: BoletoStatus
  /** How many remessas asked to register it. */
  registrations: number
  paidAmount?: number
  paidOn?: string
}

export type TransferStatus = "scheduled" | "paid" | "refused" | "returned"

export interface TransferEntry {
  /** The bank's own number for it. */
  readonly id: string
  readonly reference: string
  readonly form: string
  readonly payeeBank: string
  readonly payeeAgency: string
  readonly payeeAccount: string
  readonly payeeAccountDigit: string
  readonly payeeName: string
  readonly payeeDocument: string
  readonly amount: number
  readonly receivedIn: string
  status: TransferStatus
  refusals: Array<string>
  endToEndId?: string
  paidOn?: string
}

/** What the next retorno says of a boleto (segments T and U). */
export interface BoletoAnswer {
  readonly boleto: BoletoFacts
  readonly movement: string
  readonly reasons: ReadonlyArray<string>
  readonly paid: number
  readonly occurredOn: string
  readonly creditedOn: string | null
}

/** What the next retorno says of a transfer (segments A and B). */
export interface TransferAnswer {
  readonly transferId: string
  readonly occurrences: ReadonlyArray<string>
}

export interface Rules {
  /** Registrations to reject on arrival, by our number or by amount (cents, as text), with the reason. */
  readonly rejectRegistration: Record<string, string>
  /** Transfers to fail when they come due, by reference or by amount (cents, as text), with the occurrence. */
  readonly failTransfer: Record<string, string>
}

export interface Book {
  retornoSequence: number
  transferSequence: number
  /** The remessas acted on, by name: each once. */
  readonly processed: Array<string>
  readonly boletos: Record<string, BoletoEntry>
  readonly transfers: Array<TransferEntry>
  readonly boletoAnswers: Array<BoletoAnswer>
  readonly transferAnswers: Array<TransferAnswer>
  readonly rules: Rules
}

const empty = (): Book => ({
  retornoSequence: 0,
  transferSequence: 0,
  processed: [],
  boletos: {},
  transfers: [],
  boletoAnswers: [],
  transferAnswers: [],
  rules: { rejectRegistration: {}, failTransfer: {} }
})

export const load = (dir: string): Book => {
  const path = join(dir, "book.json")
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Book) : empty()
}

export const save = (dir: string, book: Book): void => {
  const path = join(dir, "book.json")
  writeFileSync(`${path}.tmp`, JSON.stringify(book, null, 2))
  renameSync(`${path}.tmp`, path)
}
