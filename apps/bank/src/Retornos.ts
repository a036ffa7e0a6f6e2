// The retornos the local bank writes, in FEBRABAN's CNAB 240 (file layout 103): for cobrança, a segment T and a U per
// boleto answered (batch layout 060); for payments, a segment A and a B per transfer answered, a batch per form (046).
import type { BoletoAnswer, TransferEntry } from "./Book.js"
import { ddmmaaaa, digits, line, text } from "./Fields.js"

/** Who the bank writes to, and itself. */
export interface Parties {
  readonly bankCode: string
  readonly bankName: string
  readonly clientDocument: string
  readonly clientName: string
  readonly agreement: string
  readonly agency: string
  readonly account: string
  readonly accountDigit: string
}

export interface Written {
  readonly sequence: number
  readonly date: string
  readonly time: string
}

const clearingOfForm: Readonly<Record<string, string>> = { "01": "000", "41": "018", "45": "009" }

const fileHeader = (parties: Parties, written: Written) =>
  line([
    [1, `${parties.bankCode}00000`],
    [18, `2${digits(parties.clientDocument, 14)}`],
    [33, text(parties.agreement, 20)],
    [53, `${digits(parties.agency, 5)} ${digits(parties.account, 12)}${text(parties.accountDigit, 1)}`],
    [73, text(parties.clientName.toUpperCase(), 30)],
    [103, text(parties.bankName.toUpperCase(), 30)],
    [143, `2${ddmmaaaa(written.date)}${written.time.replaceAll(":", "")}${digits(written.sequence, 6)}10300000`]
  ])

const fileTrailer = (parties: Parties, batches: number, records: number) =>
  line([
    [1, `${parties.bankCode}99999`],
    [18, `${digits(batches, 6)}${digits(records, 6)}000000`]
  ])

const lines = (records: ReadonlyArray<string>) => records.map((record) => `${record}\r\n`).join("")

/** A cobrança retorno answering `answers`, each of a boleto of the book. */
export const cobranca = (parties: Parties, written: Written, answers: ReadonlyArray<BoletoAnswer>): string => {
  const details = answers.flatMap((answer, index) => {
    const { boleto } = answer
    const reasons = answer.reasons.join("").padEnd(10, " ")
    const t = line([
      [1, `${parties.bankCode}00013${digits(2 * index + 1, 5)}T ${answer.movement}`],
      [18, `${digits(parties.agency, 5)} ${digits(parties.account, 12)}${text(parties.accountDigit, 1)} `],
      [38, `${text(boleto.ourNumber, 20)}1${text(boleto.documentNumber, 15)}`],
      [74, `${boleto.dueDate === null ? "00000000" : ddmmaaaa(boleto.dueDate)}${digits(boleto.amount, 15)}`],
      [97, `${parties.bankCode}${digits(parties.agency, 5)} ${text(boleto.companyReference, 25)}09`],
      [
        133,
        `${/^[012]$/.test(boleto.payerDocumentType) ? boleto.payerDocumentType : "0"}${digits(/^\d{15}$/.test(boleto.payerDocument) ? boleto.payerDocument : 0, 15)}`
      ],
      [149, `${text(boleto.payerName, 40)}${digits(0, 10)}${digits(0, 15)}${reasons}`]
    ])
    const u = line([
      [1, `${parties.bankCode}00013${digits(2 * index + 2, 5)}U ${answer.movement}`],
      [18, digits(0, 60)],
      [78, `${digits(answer.paid, 15)}${digits(answer.paid, 15)}${digits(0, 30)}`],
      [138, `${ddmmaaaa(answer.occurredOn)}${answer.creditedOn === null ? "00000000" : ddmmaaaa(answer.creditedOn)}`]
    ])
    return [t, u]
  })
  const paid = answers.filter((answer) => answer.movement === "06")
  return lines([
    fileHeader(parties, written),
    line([
      [1, `${parties.bankCode}00011T01  060 2${digits(parties.clientDocument, 15)}${text(parties.agreement, 20)}`],
      [54, `${digits(parties.agency, 5)} ${digits(parties.account, 12)}${text(parties.accountDigit, 1)} `],
      [74, text(parties.clientName.toUpperCase(), 30)],
      [184, `${digits(written.sequence, 8)}${ddmmaaaa(written.date)}00000000`]
    ]),
    ...details,
    line([
      [1, `${parties.bankCode}00015`],
      [18, digits(details.length + 2, 6)],
      [
        24,
        `${digits(paid.length, 6)}${digits(
          paid.reduce((sum, answer) => sum + answer.paid, 0),
          17
        )}`
      ]
    ]),
    fileTrailer(parties, 1, details.length + 4)
  ])
}

/** A payments retorno answering transfers, each with its occurrences, in a batch per form. */
export const pagamentos = (
  parties: Parties,
  written: Written,
  answers: ReadonlyArray<{ readonly transfer: TransferEntry; readonly occurrences: ReadonlyArray<string> }>
): string => {
  const forms = [...new Set(answers.map((answer) => answer.transfer.form))].sort()
  const batches = forms.map((form, batchIndex) => {
    const batch = digits(batchIndex + 1, 4)
    const ofForm = answers.filter((answer) => answer.transfer.form === form)
    const details = ofForm.flatMap(({ transfer, occurrences }, index) => {
      const paid = transfer.status === "paid" || transfer.status === "returned"
      const a = line([
        [1, `${parties.bankCode}${batch}3${digits(2 * index + 1, 5)}A000${clearingOfForm[form] ?? "000"}`],
        [21, `${transfer.payeeBank}${transfer.payeeAgency} ${transfer.payeeAccount}${transfer.payeeAccountDigit} `],
        [44, `${text(transfer.payeeName, 30)}${text(transfer.reference, 20)}`],
        [94, `${ddmmaaaa(written.date)}BRL${digits(0, 15)}${digits(transfer.amount, 15)}${text(transfer.id, 20)}`],
        [155, paid ? `${ddmmaaaa(transfer.paidOn ?? written.date)}${digits(transfer.amount, 15)}` : digits(0, 23)],
        [231, text(occurrences.join(""), 10)]
      ])
      const document = transfer.payeeDocument.replace(/^0+(?=\d{11}$)/, "")
      const b = line([
        [1, `${parties.bankCode}${batch}3${digits(2 * index + 2, 5)}B${form === "45" ? "05 " : "   "}`],
        [18, `${document.length === 11 ? "1" : "2"}${digits(transfer.payeeDocument, 14)}`],
        ...(form === "45" && transfer.endToEndId !== undefined ? [[33, text(transfer.endToEndId, 35)] as const] : []),
        [233, digits(0, 8)]
      ])
      return [a, b]
    })
    return [
      line([
        [1, `${parties.bankCode}${batch}1C20${form}046 2${digits(parties.clientDocument, 14)}`],
        [33, `${text(parties.agreement, 20)}${digits(parties.agency, 5)} ${digits(parties.account, 12)}`],
        [71, `${text(parties.accountDigit, 1)} ${text(parties.clientName.toUpperCase(), 30)}`]
      ]),
      ...details,
      line([
        [1, `${parties.bankCode}${batch}5`],
        [18, digits(details.length + 2, 6)],
        [
          24,
          digits(
            ofForm.reduce((sum, answer) => sum + answer.transfer.amount, 0),
            18
          )
        ]
      ])
    ]
  })
  const records = batches.flat()
  return lines([fileHeader(parties, written), ...records, fileTrailer(parties, batches.length, records.length + 2)])
}
