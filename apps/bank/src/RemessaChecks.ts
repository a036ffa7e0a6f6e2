// How the local bank checks a remessa before it acts on it: the file as a whole (its frame — header, batches, trailers
// and their counts — and that it is its client's, under its agreement), refused with G059's codes; then each boleto's
// segments P, Q and R (C047's reasons) or each payment's A and B (G059's), refused one by one.
import { isInscription } from "./Documents.js"
import { at, dayOf, isDigits } from "./Fields.js"
import type { Occurrence, RejectionReason } from "./Occurrences.js"

/** Who the bank takes remessas from: its client's account and agreement. */
export interface Client {
  readonly bankCode: string
  readonly document: string
  readonly agreement: string
  readonly agency: string
  readonly account: string
  readonly accountDigit: string
}

export interface FileProblem {
  readonly line: number
  readonly code: Occurrence
  readonly detail: string
}

export interface Boleto {
  readonly movement: string
  readonly ourNumber: string
  readonly documentNumber: string
  readonly companyReference: string
  readonly dueDate: string | null
  readonly amount: number
  readonly payerDocumentType: string
  readonly payerDocument: string
  readonly payerName: string
  /** Empty when the instruction is taken. */
  readonly reasons: ReadonlyArray<RejectionReason>
}

export interface Transfer {
  readonly form: string
  readonly reference: string
  readonly payeeBank: string
  readonly payeeAgency: string
  readonly payeeAccount: string
  readonly payeeAccountDigit: string
  readonly payeeName: string
  readonly payeeDocument: string
  readonly amount: number
  readonly paymentDate: string | null
  /** Empty when the payment is taken. */
  readonly refusals: ReadonlyArray<Occurrence>
}

export type Checked =
  | { readonly _tag: "Refused"; readonly problems: ReadonlyArray<FileProblem> }
  | { readonly _tag: "Cobranca"; readonly sequence: number; readonly boletos: ReadonlyArray<Boleto> }
  | { readonly _tag: "Pagamentos"; readonly sequence: number; readonly transfers: ReadonlyArray<Transfer> }

const species = new Set(["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "17", "99"])
const states = new Set("AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO".split(" "))
const clearingOfForm: Readonly<Record<string, string>> = { "01": "000", "41": "018", "45": "009" }

interface Numbered {
  readonly number: number
  readonly text: string
}

const frameProblems = (lines: ReadonlyArray<Numbered>, client: Client): ReadonlyArray<FileProblem> => {
  const problems: Array<FileProblem> = []
  const problem = (line: number, code: Occurrence, detail: string) => problems.push({ line, code, detail })
  for (const line of lines) {
    if (line.text.length !== 240) problem(line.number, "HJ", `a record of ${line.text.length} characters, not 240`)
    else if (at(line.text, 1, 3) !== client.bankCode) problem(line.number, "AA", `bank ${at(line.text, 1, 3)}`)
  }
  if (problems.length > 0) return problems
  const header = lines[0]
  const trailer = lines.at(-1)
  if (header === undefined || trailer === undefined || lines.length < 4) {
    return [{ line: 0, code: "HI", detail: "a file has a header, a batch and a trailer" }]
  }
  if (at(header.text, 8, 8) !== "0") problem(1, "HJ", "the file does not open with a header (0)")
  if (at(header.text, 143, 143) !== "1") problem(1, "HK", "this is no remessa (1)")
  if (at(header.text, 164, 166) !== "103") problem(1, "HL", `file layout ${at(header.text, 164, 166)}, not 103`)
  if (at(header.text, 19, 32) !== client.document) problem(1, "AE", "not the client's CNPJ")
  if (at(header.text, 33, 52).trim() !== client.agreement) problem(1, "AF", "not the client's agreement")
  if (
    at(header.text, 53, 57) !== client.agency.padStart(5, "0") ||
    Number(at(header.text, 59, 70)) !== Number(client.account)
  ) {
    problem(1, "AG", "not the client's account")
  }
  if (!isDigits(at(header.text, 158, 163))) problem(1, "HI", "no file sequence")
  if (at(trailer.text, 8, 8) !== "9") problem(trailer.number, "HJ", "the file does not close with a trailer (9)")
  let batches = 0
  let index = 1
  while (index < lines.length - 1) {
    const batchHeader = lines[index]!
    batches++
    const batch = String(batches).padStart(4, "0")
    if (at(batchHeader.text, 8, 8) !== "1") {
      problem(batchHeader.number, "HJ", `batch ${batch}'s header (1) expected`)
      return problems
    }
    if (at(batchHeader.text, 4, 7) !== batch) problem(batchHeader.number, "HG", `batch ${at(batchHeader.text, 4, 7)}`)
    let details = 0
    index++
    while (index < lines.length - 1 && at(lines[index]!.text, 8, 8) === "3") {
      const detail = lines[index]!
      details++
      if (at(detail.text, 4, 7) !== batch) problem(detail.number, "HH", `a detail of batch ${at(detail.text, 4, 7)}`)
      if (Number(at(detail.text, 9, 13)) !== details) problem(detail.number, "AH", `detail ${at(detail.text, 9, 13)}`)
      index++
    }
    const batchTrailer = lines[index]
    if (batchTrailer === undefined || at(batchTrailer.text, 8, 8) !== "5") {
      problem(batchTrailer?.number ?? 0, "HJ", `batch ${batch}'s trailer (5) expected`)
      return problems
    }
    if (Number(at(batchTrailer.text, 18, 23)) !== details + 2) {
      problem(
        batchTrailer.number,
        "TA",
        `counts ${at(batchTrailer.text, 18, 23)} records, the batch has ${details + 2}`
      )
    }
    index++
  }
  if (Number(at(trailer.text, 18, 23)) !== batches || Number(at(trailer.text, 24, 29)) !== lines.length) {
    problem(trailer.number, "TA", `counts ${at(trailer.text, 18, 23)} batches and ${at(trailer.text, 24, 29)} records`)
  }
  return problems
}

const cents = (field: string) => (isDigits(field) ? Number(field) : Number.NaN)

const checkBoleto = (client: Client, p: string, q: string | undefined, r: string | undefined): Boleto => {
  const reasons = new Set<RejectionReason>()
  const movement = at(p, 16, 17)
  if (movement !== "01" && movement !== "02") reasons.add("05")
  if (Number(at(p, 18, 22)) !== Number(client.agency) || Number(at(p, 24, 35)) !== Number(client.account)) {
    reasons.add("07")
  }
  const ourNumber = at(p, 38, 57).trim()
  if (!isDigits(ourNumber)) reasons.add("08")
  if (at(p, 58, 58) !== "1") reasons.add("10")
  const dueDate = dayOf(at(p, 78, 85))
  if (dueDate === null) reasons.add("16")
  const amount = cents(at(p, 86, 100))
  if (!(amount > 0)) reasons.add("20")
  if (movement === "01") {
    if (at(p, 59, 59) !== "1") reasons.add("11")
    if (!["1", "2"].includes(at(p, 60, 60))) reasons.add("12")
    if (!["1", "2"].includes(at(p, 61, 61))) reasons.add("13")
    if (!["1", "2"].includes(at(p, 62, 62))) reasons.add("14")
    if (!species.has(at(p, 107, 108))) reasons.add("21")
    if (!["A", "N"].includes(at(p, 109, 109))) reasons.add("23")
    const issuedOn = dayOf(at(p, 110, 117))
    if (issuedOn === null) reasons.add("24")
    else if (dueDate !== null && dueDate < issuedOn) reasons.add("17")
    const interestCode = at(p, 118, 118)
    if (!["1", "2", "3"].includes(interestCode)) reasons.add("26")
    else if (interestCode !== "3" && !(cents(at(p, 127, 141)) > 0)) reasons.add("27")
    if (q === undefined || at(q, 14, 14) !== "Q") reasons.add("45")
    else {
      if (at(q, 34, 73).trim() === "") reasons.add("45")
      if (!isInscription(at(q, 18, 18), at(q, 19, 33))) reasons.add("46")
      if (at(q, 74, 113).trim() === "") reasons.add("47")
      if (!/^\d{8}$/.test(at(q, 129, 136)) || at(q, 129, 136) === "00000000") reasons.add("48")
      if (!states.has(at(q, 152, 153))) reasons.add("52")
    }
    if (r !== undefined) {
      const fineCode = at(r, 66, 66)
      if (!["0", "1", "2"].includes(fineCode)) reasons.add("57")
      else if (fineCode !== "0") {
        if (dayOf(at(r, 67, 74)) === null) reasons.add("58")
        if (!(cents(at(r, 75, 89)) > 0)) reasons.add("59")
      }
    }
  }
  return {
    movement,
    ourNumber,
    documentNumber: at(p, 63, 77).trim(),
    companyReference: at(p, 196, 220).trim(),
    dueDate,
    amount: Number.isNaN(amount) ? 0 : amount,
    payerDocumentType: q === undefined ? "0" : at(q, 18, 18),
    payerDocument: q === undefined ? "" : at(q, 19, 33),
    payerName: q === undefined ? "" : at(q, 34, 73).trim(),
    reasons: [...reasons]
  }
}

const checkTransfer = (form: string, a: string, b: string | undefined): Transfer => {
  const refusals = new Set<Occurrence>()
  if (at(a, 15, 17) !== "000") refusals.add("AJ")
  if (at(a, 18, 20) !== clearingOfForm[form]) refusals.add("AK")
  const payeeBank = at(a, 21, 23)
  if (!isDigits(payeeBank) || payeeBank === "000") refusals.add("AL")
  if (!isDigits(at(a, 24, 28)) || Number(at(a, 24, 28)) === 0) refusals.add("AM")
  if (!isDigits(at(a, 30, 41)) || Number(at(a, 30, 41)) === 0 || at(a, 42, 42).trim() === "") refusals.add("AN")
  if (at(a, 44, 73).trim() === "") refusals.add("AO")
  const paymentDate = dayOf(at(a, 94, 101))
  if (paymentDate === null) refusals.add("AP")
  if (at(a, 102, 104) !== "BRL") refusals.add("AQ")
  const amount = cents(at(a, 120, 134))
  if (!(amount > 0)) refusals.add("AR")
  if (b === undefined || at(b, 14, 14) !== "B") refusals.add("AI")
  else {
    if (!isInscription(at(b, 18, 18), at(b, 19, 32))) refusals.add("AE")
    if (form === "45" && !["01", "02", "03", "04", "05"].includes(at(b, 15, 17).trim())) refusals.add("PL")
  }
  return {
    form,
    reference: at(a, 74, 93).trim(),
    payeeBank,
    payeeAgency: at(a, 24, 28),
    payeeAccount: at(a, 30, 41),
    payeeAccountDigit: at(a, 42, 42),
    payeeName: at(a, 44, 73).trim(),
    payeeDocument: b === undefined ? "" : at(b, 19, 32),
    amount: Number.isNaN(amount) ? 0 : amount,
    paymentDate,
    refusals: [...refusals]
  }
}

/** Checks a remessa from `client`: refused as a whole, or read into its boletos or its payments, each judged. */
export const check = (text: string, client: Client): Checked => {
  const raw = text.split(/\r?\n/)
  const lines = (raw.at(-1) === "" ? raw.slice(0, -1) : raw).map((line, index) => ({ number: index + 1, text: line }))
  const problems = frameProblems(lines, client)
  if (problems.length > 0) return { _tag: "Refused", problems }
  const sequence = Number(at(lines[0]!.text, 158, 163))
  const batchHeaders = lines.filter((line) => at(line.text, 8, 8) === "1")
  const services = new Set(batchHeaders.map((line) => at(line.text, 10, 11)))
  const details = lines.filter((line) => at(line.text, 8, 8) === "3")
  if (services.size === 1 && services.has("01")) {
    const boletos: Array<Boleto> = []
    for (let index = 0; index < details.length; index++) {
      const p = details[index]!
      if (at(p.text, 14, 14) !== "P") {
        return { _tag: "Refused", problems: [{ line: p.number, code: "AI", detail: "a boleto opens with segment P" }] }
      }
      const next = (segment: string) => {
        const line = details[index + 1]
        if (line === undefined || at(line.text, 14, 14) !== segment) return undefined
        index++
        return line.text
      }
      const q = next("Q")
      const r = next("R")
      boletos.push(checkBoleto(client, p.text, q, r))
    }
    return { _tag: "Cobranca", sequence, boletos }
  }
  if (services.size === 1 && services.has("20")) {
    const transfers: Array<Transfer> = []
    for (const batchHeader of batchHeaders) {
      const form = at(batchHeader.text, 12, 13)
      if (clearingOfForm[form] === undefined) {
        return { _tag: "Refused", problems: [{ line: batchHeader.number, code: "AD", detail: `form ${form}` }] }
      }
      const batch = at(batchHeader.text, 4, 7)
      const ofBatch = details.filter((line) => at(line.text, 4, 7) === batch)
      for (let index = 0; index < ofBatch.length; index += 2) {
        const a = ofBatch[index]!
        if (at(a.text, 14, 14) !== "A") {
          return {
            _tag: "Refused",
            problems: [{ line: a.number, code: "AI", detail: "a payment opens with segment A" }]
          }
        }
        transfers.push(checkTransfer(form, a.text, ofBatch[index + 1]?.text))
      }
    }
    return { _tag: "Pagamentos", sequence, transfers }
  }
  return {
    _tag: "Refused",
    problems: [{ line: batchHeaders[0]?.number ?? 0, code: "AC", detail: `services ${[...services].join(", ")}` }]
  }
}
