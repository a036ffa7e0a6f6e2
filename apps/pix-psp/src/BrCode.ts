// The dynamic BR Code of an immediate charge (EMV QRCPS-MPM as the Central Bank's BR Code manual profiles it): the
// payer's app reads the location URL from it and fetches the charge's signed payload there. Also reads one back, for
// the simulator's "pay this code".
import { Option } from "effect"

const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, "0")}${value}`

/** CRC16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF) over the text, as four upper-case hex digits. */
export const crc16 = (text: string): string => {
  let crc = 0xffff
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, "0")
}

/** Merchant name and city go in plain ASCII (the manual's character set), accents dropped, cut to their limits. */
const plain = (text: string, limit: number) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "")
    .trim()
    .slice(0, limit)
    .trim()

export interface DynamicCode {
  /** The charge's location, without `https://`. */
  readonly url: string
  readonly merchantName: string
  readonly merchantCity: string
}

/** The "pix copia e cola" text of a dynamic code: the amount and the txid are in the payload, not in the code. */
export const dynamic = ({ url, merchantName, merchantCity }: DynamicCode): string => {
  const withoutCrc =
    field("00", "01") +
    field("01", "12") +
    field("26", field("00", "br.gov.bcb.pix") + field("25", url)) +
    field("52", "0000") +
    field("53", "986") +
    field("58", "BR") +
    field("59", plain(merchantName, 25)) +
    field("60", plain(merchantCity, 15)) +
    field("62", field("05", "***")) +
    "6304"
  return withoutCrc + crc16(withoutCrc)
}

/** The fields of an EMV text, by id; none when a length runs past the end. */
const fields = (text: string): Option.Option<ReadonlyMap<string, string>> => {
  const found = new Map<string, string>()
  let at = 0
  while (at < text.length) {
    const id = text.slice(at, at + 2)
    const length = Number(text.slice(at + 2, at + 4))
    const value = text.slice(at + 4, at + 4 + length)
    if (!/^\d{2}$/.test(text.slice(at + 2, at + 4)) || value.length !== length) return Option.none()
    found.set(id, value)
    at += 4 + length
  }
  return Option.some(found)
}

/** The location URL of a dynamic pix code whose CRC is right, if it is one. */
export const locationOf = (code: string): Option.Option<string> => {
  const text = code.trim()
  if (text.length < 8 || crc16(text.slice(0, -4)) !== text.slice(-4).toUpperCase()) return Option.none()
  return fields(text).pipe(
    Option.flatMap((top) => Option.fromNullishOr(top.get("26"))),
    Option.flatMap(fields),
    Option.filter((account) => account.get("00")?.toLowerCase() === "br.gov.bcb.pix"),
    Option.flatMap((account) => Option.fromNullishOr(account.get("25")))
  )
}
