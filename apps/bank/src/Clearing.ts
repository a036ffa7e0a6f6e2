// What the local bank does each cycle: acts on every new remessa once — refusing a malformed file with a report,
// registering, rejecting or writing off boletos, scheduling transfers — pays the transfers it scheduled before, and
// writes what it has to say in retornos. The simulator's payments and returns are answered the same way.
import { randomBytes } from "node:crypto"
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { type BoletoAnswer, type BoletoEntry, type Book, factsOf, keyOf, type TransferEntry } from "./Book.js"
import { occurrences } from "./Occurrences.js"
import { type Client, check } from "./RemessaChecks.js"
import * as Retornos from "./Retornos.js"

export interface Clock {
  /** `YYYY-MM-DD` and `HH:MM:SS`, São Paulo. */
  readonly now: () => { readonly date: string; readonly time: string; readonly minute: string }
}

export interface Place {
  readonly remessaDir: string
  readonly retornoDir: string
  readonly client: Client
  readonly parties: Retornos.Parties
  /** The bank's ISPB, at the start of the end-to-end ids of the pix it makes. */
  readonly ispb: string
}

/** Names Fatura's remessas have: the file is taken once its upload is complete (renamed from `.part`). */
const isRemessa = (name: string) => /\.REM$/i.test(name)

const writeFile = (dir: string, name: string, content: string) => {
  writeFileSync(join(dir, `${name}.part`), content)
  renameSync(join(dir, `${name}.part`), join(dir, name))
}

const endToEndId = (ispb: string, minute: string) =>
  `E${ispb}${minute}${randomBytes(16)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 11)}`

/** Acts on one remessa: what the bank will answer goes to the book's queues. */
const actOn = (book: Book, place: Place, name: string, today: string) => {
  const checked = check(readFileSync(join(place.remessaDir, name), "latin1"), place.client)
  if (checked._tag === "Refused") {
    const report = checked.problems.map(
      (problem) => `${problem.line};${problem.code};${occurrences[problem.code]};${problem.detail}`
    )
    writeFile(
      place.retornoDir,
      name.replace(/\.REM$/i, ".REJ"),
      `0;HI;${occurrences.HI};${name}\r\n${report.join("\r\n")}\r\n`
    )
    return
  }
  if (checked._tag === "Cobranca") {
    for (const boleto of checked.boletos) {
      const facts = factsOf(boleto)
      const answer = (movement: string, reasons: ReadonlyArray<string>) =>
        book.boletoAnswers.push({ boleto: facts, movement, reasons, paid: 0, occurredOn: today, creditedOn: null })
      const reject = (reasons: ReadonlyArray<string>) => answer("03", reasons)
      const known = book.boletos[keyOf(boleto.ourNumber)]
      const rule =
        book.rules.rejectRegistration[keyOf(boleto.ourNumber)] ?? book.rules.rejectRegistration[String(boleto.amount)]
      if (boleto.reasons.length > 0) reject(boleto.reasons)
      else if (boleto.movement === "01") {
        if (known !== undefined) {
          known.registrations++
          reject(["63"])
        } else if (rule !== undefined) {
          reject([rule])
        } else {
          book.boletos[keyOf(boleto.ourNumber)] = { ...facts, status: "registered", registrations: 1 }
          answer("02", [])
        }
      } else if (known === undefined || known.status !== "registered") {
        reject(["60"])
      } else {
        known.status = "written_off"
        answer("09", [])
      }
    }
    return
  }
  for (const transfer of checked.transfers) {
    book.transferSequence++
    const entry: TransferEntry = {
      id: `T${String(book.transferSequence).padStart(9, "0")}`,
      reference: transfer.reference,
      form: transfer.form,
      payeeBank: transfer.payeeBank,
      payeeAgency: transfer.payeeAgency,
      payeeAccount: transfer.payeeAccount,
      payeeAccountDigit: transfer.payeeAccountDigit,
      payeeName: transfer.payeeName,
      payeeDocument: transfer.payeeDocument,
      amount: transfer.amount,
      receivedIn: name,
      status: transfer.refusals.length > 0 ? "refused" : "scheduled",
      refusals: [...transfer.refusals]
    }
    book.transfers.push(entry)
    book.transferAnswers.push({
      transferId: entry.id,
      occurrences: transfer.refusals.length > 0 ? transfer.refusals : ["BD"]
    })
  }
}

/** Pays the transfers scheduled in an earlier cycle, or fails those a rule names. */
const payScheduled = (
  book: Book,
  place: Place,
  now: ReturnType<Clock["now"]>,
  scheduledBefore: ReadonlySet<string>
) => {
  for (const transfer of book.transfers) {
    if (transfer.status !== "scheduled" || !scheduledBefore.has(transfer.id)) continue
    const rule = book.rules.failTransfer[transfer.reference] ?? book.rules.failTransfer[String(transfer.amount)]
    // A pix's refusal (codes P…) is the receiving institution's answer to a pix: a TED to the account is another matter.
    const failure = rule !== undefined && (transfer.form === "45" || !rule.startsWith("P")) ? rule : undefined
    if (failure !== undefined) {
      transfer.status = "refused"
      transfer.refusals = [failure]
      book.transferAnswers.push({ transferId: transfer.id, occurrences: [failure] })
      continue
    }
    transfer.status = "paid"
    transfer.paidOn = now.date
    if (transfer.form === "45") transfer.endToEndId = endToEndId(place.ispb, now.minute)
    book.transferAnswers.push({ transferId: transfer.id, occurrences: ["00"] })
  }
}

/** Writes what the queues hold as retornos, cobrança and payments each in a file of its own. */
const writeRetornos = (book: Book, place: Place, now: ReturnType<Clock["now"]>) => {
  if (book.boletoAnswers.length > 0) {
    book.retornoSequence++
    const written = { sequence: book.retornoSequence, date: now.date, time: now.time }
    const answers: Array<BoletoAnswer> = book.boletoAnswers.splice(0)
    const content = Retornos.cobranca(place.parties, written, answers)
    writeFile(place.retornoDir, `CB${String(book.retornoSequence).padStart(6, "0")}.RET`, content)
  }
  if (book.transferAnswers.length > 0) {
    book.retornoSequence++
    const written = { sequence: book.retornoSequence, date: now.date, time: now.time }
    const answers = book.transferAnswers.splice(0).flatMap((answer) => {
      const transfer = book.transfers.find((candidate) => candidate.id === answer.transferId)
      return transfer === undefined ? [] : [{ transfer, occurrences: answer.occurrences }]
    })
    writeFile(
      place.retornoDir,
      `PG${String(book.retornoSequence).padStart(6, "0")}.RET`,
      Retornos.pagamentos(place.parties, written, answers)
    )
  }
}

/** One cycle of the bank: returns the names of the remessas it acted on. */
export const cycle = (book: Book, place: Place, clock: Clock): ReadonlyArray<string> => {
  const now = clock.now()
  const scheduledBefore = new Set(book.transfers.filter((transfer) => transfer.status === "scheduled").map((t) => t.id))
  const fresh = existsSync(place.remessaDir)
    ? readdirSync(place.remessaDir)
        .filter((name) => isRemessa(name) && !book.processed.includes(name))
        .sort()
    : []
  for (const name of fresh) {
    book.processed.push(name)
    actOn(book, place, name, now.date)
  }
  payScheduled(book, place, now, scheduledBefore)
  writeRetornos(book, place, now)
  return fresh
}

/** A payer pays a registered boleto at the bank: `06` in the next retorno, for `amount` or the boleto's own. */
export const payBoleto = (
  book: Book,
  ourNumber: string,
  amount: number | undefined,
  today: string,
  creditOn: string
): { readonly paid: boolean; readonly boleto: BoletoEntry | undefined } => {
  const boleto = book.boletos[keyOf(ourNumber)]
  if (boleto === undefined || boleto.status !== "registered") return { paid: false, boleto }
  boleto.status = "paid"
  boleto.paidAmount = amount ?? boleto.amount
  boleto.paidOn = today
  book.boletoAnswers.push({
    boleto: factsOf(boleto),
    movement: "06",
    reasons: [],
    paid: boleto.paidAmount,
    occurredOn: today,
    creditedOn: creditOn
  })
  return { paid: true, boleto }
}

/** The bank writes off a registered boleto no one paid (its deadline passed): `09` in the next retorno. */
export const writeOff = (
  book: Book,
  ourNumber: string,
  today: string
): { readonly writtenOff: boolean; readonly boleto: BoletoEntry | undefined } => {
  const boleto = book.boletos[keyOf(ourNumber)]
  if (boleto === undefined || boleto.status !== "registered") return { writtenOff: false, boleto }
  boleto.status = "written_off"
  book.boletoAnswers.push({
    boleto: factsOf(boleto),
    movement: "09",
    reasons: [],
    paid: 0,
    occurredOn: today,
    creditedOn: null
  })
  return { writtenOff: true, boleto }
}

/** The receiving bank returns a transfer paid before: `DV` in the next retorno. */
export const returnTransfer = (
  book: Book,
  id: string
): { readonly returned: boolean; readonly transfer: TransferEntry | undefined } => {
  const transfer = book.transfers.find((candidate) => candidate.id === id)
  if (transfer === undefined || transfer.status !== "paid") return { returned: false, transfer }
  transfer.status = "returned"
  book.transferAnswers.push({ transferId: id, occurrences: ["DV"] })
  return { returned: true, transfer }
}
