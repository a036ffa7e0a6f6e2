// The values CNAB 240 writes in its own way: dates as DDMMAAAA (zeros for none), times as HHMMSS, documents by their
// inscription type, and the account of the company a file is exchanged for.

/** `YYYY-MM-DD` as a layout writes a date: `DDMMAAAA`. */
export const dateField = (date: string): string => `${date.slice(8, 10)}${date.slice(5, 7)}${date.slice(0, 4)}`

/** A `DDMMAAAA` field as `YYYY-MM-DD`, or null for zeros, blanks or a day that does not exist. */
export const dateOf = (field: string): string | null => {
  if (!/^\d{8}$/.test(field) || field === "00000000") return null
  const date = `${field.slice(4, 8)}-${field.slice(2, 4)}-${field.slice(0, 2)}`
  const parsed = new Date(`${date}T00:00:00Z`)
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date ? null : date
}

/** `Tipo de Inscrição`: 1 for a CPF, 2 for a CNPJ (0 for none). */
export const documentTypes = { none: "0", cpf: "1", cnpj: "2" } as const

/** The inscription type of a document's digits: a CPF has 11, a CNPJ 14. */
export const documentTypeOf = (document: string): string =>
  document.length === 11 ? documentTypes.cpf : document.length === 14 ? documentTypes.cnpj : documentTypes.none

/** A numeric field's digits as a number (nothing reads as 0). */
export const numberOf = (digits: string): number => (digits === "" ? 0 : Number(digits))

/** The platform's account at the bank that issues its boletos and pays its withdrawals, as files carry it. */
export interface BankAccount {
  /** The bank's 3-digit COMPE code. */
  readonly bankCode: string
  readonly bankName: string
  /** The account holder's CNPJ, digits. */
  readonly companyDocument: string
  readonly companyName: string
  /** `Código do Convênio no Banco`: the agreement under which the bank takes files from the account. */
  readonly agreement: string
  readonly agency: string
  readonly agencyDigit: string
  readonly account: string
  readonly accountDigit: string
}

/** The instant a file is written, in the bank's time (São Paulo): `YYYY-MM-DD` and `HH:MM:SS`. */
export interface Written {
  readonly date: string
  readonly time: string
}

/** Writes a file's lines as a bank takes them: CR LF after every line, the last one too. */
export const joinLines = (lines: ReadonlyArray<string>): string => lines.map((line) => `${line}\r\n`).join("")

/** A file's lines, whatever ends them (CR LF, LF), without the empty one after the last end of line. */
export const splitLines = (text: string): ReadonlyArray<string> => {
  const lines = text.split(/\r?\n/)
  return lines.at(-1) === "" ? lines.slice(0, -1) : lines
}
