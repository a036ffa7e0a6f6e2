// The pix "copia e cola" payload: a BR Code (EMV QRCPS-MPM as profiled by Banco Central) that any bank app
// reads to pay one invoice (SPEC 6.1).
import * as Cents from "./Cents.js"
import type { PixKey } from "./PixKey.js"

export interface BrCodeInput {
  /** The company's pix key, parsed: ASCII and at most 77 characters, so that field 26 fits its two-digit length. */
  readonly pixKey: PixKey
  readonly merchantName: string
  readonly merchantCity: string
  readonly amount: Cents.Cents
  /** Matches the paid pix to its invoice; see {@link isValidTxid}. */
  readonly txid: string
}

const txidPattern = /^[A-Za-z0-9]{1,25}$/

const utf8 = new TextEncoder()

export const isValidTxid = (txid: string): boolean => txidPattern.test(txid)

/**
 * The txid a static-profile BR Code carries for an invoice: the first 25 hex digits of its secureId (a random UUID,
 * so about 96 random bits), which a retry of the same invoice derives again.
 */
export const staticTxidOf = (secureId: string): string => secureId.replaceAll("-", "").slice(0, 25)

/**
 * `text` reduced to what every bank app shows alike: accents folded (São → Sao), only ASCII letters, digits,
 * spaces and `.,-&/` kept, spaces collapsed, cut to `maxLength`. May return "".
 */
export const fold = (text: string, maxLength: number): string =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z0-9 .,\-&/]/g, (character) => (/\s/.test(character) ? " " : ""))
    .replace(/ {2,}/g, " ")
    .trim()
    .slice(0, maxLength)
    .trimEnd()

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) of the UTF-8 bytes, 4 hex digits. */
export const crc16 = (payload: string): string => {
  let crc = 0xffff
  for (const byte of utf8.encode(payload)) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, "0")
}

// An EMV data object: two-digit id, two-digit length, value. The length counts bytes, as a bank app reading the
// UTF-8 payload does, not UTF-16 code units. A longer value cannot be written at all, so reaching it is a bug of
// the caller (a pix key that did not come from PixKey.parse, an unchecked txid), not a payer's mistake.
const field = (id: string, value: string): string => {
  const length = utf8.encode(value).length
  if (length > 99) throw new RangeError(`BR Code field ${id} is ${length} bytes, at most 99 fit`)
  return `${id}${length.toString().padStart(2, "0")}${value}`
}

/** Never throws on a key from PixKey.parse; throws on an invalid txid or a forged over-long key: both are bugs. */
export const build = (input: BrCodeInput): string => {
  if (!isValidTxid(input.txid)) throw new RangeError(`invalid pix txid ${JSON.stringify(input.txid)}`)
  const payload = [
    field("00", "01"),
    field("01", "12"),
    field("26", field("00", "br.gov.bcb.pix") + field("01", input.pixKey)),
    field("52", "0000"),
    field("53", "986"),
    field("54", Cents.toDecimalString(input.amount)),
    field("58", "BR"),
    field("59", fold(input.merchantName, 25) || "FATURA"),
    field("60", fold(input.merchantCity, 15) || "SAO PAULO"),
    field("62", field("05", input.txid)),
    "6304"
  ].join("")
  return payload + crc16(payload)
}
