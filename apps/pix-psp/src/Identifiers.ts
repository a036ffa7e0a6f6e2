// The identifiers the API Pix and the Pix catalogue of messages define: the receiver's txid, the EndToEndId of a pix
// (pacs.008) and the ReturnIdentification of a refund (pacs.004), both `<letter><ISPB><yyyyMMddHHmm><11 characters>`.
import { randomBytes } from "node:crypto"

/** The txid of a charge: 26 to 35 letters and digits (the spec's pattern, read whole). */
export const txidPattern = /^[a-zA-Z0-9]{26,35}$/
/** The id a client gives a refund: 1 to 35 letters and digits. */
export const refundIdPattern = /^[a-zA-Z0-9]{1,35}$/
export const endToEndIdPattern = /^[a-zA-Z0-9]{32}$/

/** ISPB of the paying institution the simulator stands for (not a real participant's). */
export const simulatedPayerIspb = "99999999"
/** ISPB of this PSP, the receiver's institution, which sends the refunds (not a real participant's). */
export const pspIspb = "99999998"

const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

const randomText = (length: number) =>
  Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join("")

/** `yyyyMMddHHmm` of an instant, in UTC as the catalogue asks. */
const minuteOf = (millis: number) => new Date(millis).toISOString().replace(/[-T:]/g, "").slice(0, 12)

export const endToEndId = (millis: number): string => `E${simulatedPayerIspb}${minuteOf(millis)}${randomText(11)}`

export const returnId = (millis: number): string => `D${pspIspb}${minuteOf(millis)}${randomText(11)}`

/** The secret part of a location URL (a capability URL): 32 hex digits. */
export const locationToken = (): string => randomBytes(16).toString("hex")

/** A secret of the given number of random bytes, in base64url. */
export const secret = (bytes: number): string => randomBytes(bytes).toString("base64url")
