// Where postbacks may go (SPEC 8.4): an http(s) URL whose host is a public address, so that a merchant cannot
// make Fatura call into its own network (loopback, private ranges, the cloud metadata endpoint 169.254.169.254).
import { Result, Schema } from "effect"

export class PostbackUrlRejected extends Schema.TaggedError<PostbackUrlRejected>()("PostbackUrlRejected", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

const reject = (reason: string) => Result.fail(new PostbackUrlRejected({ reason }))

export const maxUrlLength = 2048

export interface PostbackUrl {
  readonly protocol: "http" | "https"
  /**
   * The host as WHATWG URL (and so `fetch`) reads it: lowercase, punycode, an IPv4 address in dotted decimal
   * whatever form it was written in (`2130706433` → `127.0.0.1`), an IPv6 address compressed and without brackets.
   */
  readonly host: string
  /** `null` when the URL names no port or the scheme's default one. */
  readonly port: number | null
}

/** Accepts only absolute http(s) URLs of at most {@link maxUrlLength} characters with no credentials in them. */
export const parseUrl = (url: string): Result.Result<PostbackUrl, PostbackUrlRejected> => {
  if (url.length > maxUrlLength) return reject(`longer than ${maxUrlLength} characters`)
  if (!URL.canParse(url)) return reject("not an absolute URL")
  const parsed = new URL(url)
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return reject("only http and https URLs")
  // A password would travel in every postback and end up in logs; postbacks are authenticated by signature.
  if (parsed.username !== "" || parsed.password !== "") return reject("credentials are not allowed in the URL")
  const host = parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname
  return Result.succeed({
    protocol: parsed.protocol === "http:" ? "http" : "https",
    host,
    port: parsed.port === "" ? null : Number(parsed.port)
  })
}

export const AddressKind = Schema.Literals([
  "public",
  "loopback",
  "private",
  "link_local",
  "multicast",
  "unspecified",
  "reserved"
])
export type AddressKind = typeof AddressKind.Type

// Addresses as unsigned integers: 32 bits for IPv4, 128 for IPv6.
interface Address {
  readonly family: 4 | 6
  readonly bits: bigint
}

const ipv4Part = { 16: /^[0-9a-f]*$/i, 10: /^[0-9]+$/, 8: /^[0-7]*$/ } as const

// One part of an IPv4 address as WHATWG URL and inet_aton read it: 0x-prefixed hex, 0-prefixed octal, or decimal.
const parseIpv4Part = (part: string): number | undefined => {
  if (part === "") return undefined
  const radix = /^0x/i.test(part) ? 16 : part.length > 1 && part.startsWith("0") ? 8 : 10
  const digits = radix === 16 ? part.slice(2) : radix === 8 ? part.slice(1) : part
  if (!ipv4Part[radix].test(digits)) return undefined
  // "0x" alone is 0 for WHATWG. Parts too long for a double are far above any limit, so precision does not matter.
  return digits === "" ? 0 : Number.parseInt(digits, radix)
}

// Every form WHATWG URL accepts for an IPv4 host (`127.1`, `0x7f.0.0.1`, `2130706433`, `017700000001`, a trailing
// dot), so that no spelling of an address passes for a name.
const parseIpv4 = (text: string): bigint | undefined => {
  const parts = text.split(".")
  if (parts.length > 1 && parts.at(-1) === "") parts.pop()
  if (parts.length > 4) return undefined
  const numbers: Array<number> = []
  for (const part of parts) {
    const value = parseIpv4Part(part)
    if (value === undefined) return undefined
    numbers.push(value)
  }
  const last = numbers.pop() ?? 0
  // The last part fills all the bytes the others leave: `127.1` is 127.0.0.1.
  if (numbers.some((value) => value > 255) || last >= 256 ** (4 - numbers.length)) return undefined
  const leading = numbers.reduce((bits, value, i) => bits + BigInt(value) * 256n ** BigInt(3 - i), 0n)
  return leading + BigInt(last)
}

// The dotted quad that may end an IPv6 address: exactly four decimal bytes, without leading zeros (as inet_pton).
const parseDottedQuad = (text: string): bigint | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9][0-9]{0,2})$/.test(part) && Number(part) <= 255)) {
    return undefined
  }
  return parts.reduce((bits, part) => (bits << 8n) + BigInt(part), 0n)
}

// The 16-bit groups of one side of `::`; only the end of the whole address may be a dotted quad.
const ipv6Groups = (text: string, mayEndInQuad: boolean): Array<number> | undefined => {
  if (text === "") return []
  const pieces = text.split(":")
  const groups: Array<number> = []
  for (const [i, piece] of pieces.entries()) {
    if (mayEndInQuad && i === pieces.length - 1 && piece.includes(".")) {
      const quad = parseDottedQuad(piece)
      if (quad === undefined) return undefined
      groups.push(Number(quad >> 16n), Number(quad & 0xffffn))
    } else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
      groups.push(Number.parseInt(piece, 16))
    } else {
      return undefined
    }
  }
  return groups
}

const parseIpv6 = (text: string): bigint | undefined => {
  // A zone id (`fe80::1%eth0`) picks the interface, not the address.
  const zone = text.indexOf("%")
  const address = zone === -1 ? text : text.slice(0, zone)
  const halves = address.split("::")
  if (halves.length > 2) return undefined
  const head = ipv6Groups(halves[0] ?? "", halves.length === 1)
  const tail = halves.length === 2 ? ipv6Groups(halves[1] ?? "", true) : []
  if (head === undefined || tail === undefined) return undefined
  const present = head.length + tail.length
  if (halves.length === 1 ? present !== 8 : present > 7) return undefined
  const groups = [...head, ...Array<number>(8 - present).fill(0), ...tail]
  return groups.reduce((bits, group) => (bits << 16n) + BigInt(group), 0n)
}

const parseAddress = (text: string): Address | undefined => {
  const unbracketed = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text
  if (unbracketed.includes(":")) {
    const bits = parseIpv6(unbracketed)
    return bits === undefined ? undefined : { family: 6, bits }
  }
  const bits = parseIpv4(unbracketed)
  return bits === undefined ? undefined : { family: 4, bits }
}

/** Whether `text` is an IPv4 or IPv6 address (in any form {@link classifyAddress} reads) rather than a name. */
export const isIpAddress = (text: string): boolean => parseAddress(text) !== undefined

interface Range {
  readonly bits: bigint
  readonly prefixLength: number
  readonly kind: AddressKind
}

const range = (cidr: string, kind: AddressKind): Range => {
  const [text = "", prefixLength = ""] = cidr.split("/")
  const address = parseAddress(text)
  if (address === undefined) throw new Error(`bad range ${cidr}`)
  return { bits: address.bits, prefixLength: Number(prefixLength), kind }
}

const contains = (candidate: Range, bits: bigint, width: number): boolean => {
  const shift = BigInt(width - candidate.prefixLength)
  return bits >> shift === candidate.bits >> shift
}

// IANA's special-purpose registries, most specific first: the first range that holds an address gives its kind.
const ipv4Ranges: ReadonlyArray<Range> = [
  range("0.0.0.0/32", "unspecified"),
  range("0.0.0.0/8", "reserved"), // "this network": a source address only
  range("10.0.0.0/8", "private"),
  range("100.64.0.0/10", "private"), // carrier-grade NAT, shared by a provider's customers
  range("127.0.0.0/8", "loopback"),
  range("169.254.0.0/16", "link_local"), // cloud metadata endpoints live here
  range("172.16.0.0/12", "private"),
  range("192.0.0.0/24", "reserved"), // IETF protocol assignments
  range("192.0.2.0/24", "reserved"), // documentation
  range("192.88.99.0/24", "reserved"), // retired 6to4 relays
  range("192.168.0.0/16", "private"),
  range("198.18.0.0/15", "reserved"), // benchmarking
  range("198.51.100.0/24", "reserved"), // documentation
  range("203.0.113.0/24", "reserved"), // documentation
  range("224.0.0.0/4", "multicast"),
  range("240.0.0.0/4", "reserved") // future use, and 255.255.255.255 (broadcast)
]

const ipv6Ranges: ReadonlyArray<Range> = [
  range("::/128", "unspecified"),
  range("::1/128", "loopback"),
  range("64:ff9b:1::/48", "private"), // NAT64 inside one network
  range("100::/64", "reserved"), // discard
  range("2001:db8::/32", "reserved"), // documentation
  range("2001::/23", "reserved"), // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  range("3fff::/20", "reserved"), // documentation
  range("5f00::/16", "reserved"), // segment routing
  range("fc00::/7", "private"), // unique local
  range("fe80::/10", "link_local"),
  range("fec0::/10", "private"), // retired site-local
  range("ff00::/8", "multicast")
]

// IPv6 addresses that reach an IPv4 address, and so are what that address is.
const mapped = range("::ffff:0:0/96", "reserved")
const nat64 = range("64:ff9b::/96", "reserved")
const sixToFour = range("2002::/16", "reserved")
const globalUnicast = range("2000::/3", "public")

const kindIn = (ranges: ReadonlyArray<Range>, bits: bigint, width: number): AddressKind | undefined =>
  ranges.find((candidate) => contains(candidate, bits, width))?.kind

const classifyIpv4 = (bits: bigint): AddressKind => kindIn(ipv4Ranges, bits, 32) ?? "public"

const classifyIpv6 = (bits: bigint): AddressKind => {
  if (contains(mapped, bits, 128) || contains(nat64, bits, 128)) return classifyIpv4(bits & 0xffffffffn)
  if (contains(sixToFour, bits, 128)) return classifyIpv4((bits >> 80n) & 0xffffffffn)
  // Outside 2000::/3 nothing is allocated to anyone, the deprecated IPv4-compatible ::a.b.c.d included.
  return kindIn(ipv6Ranges, bits, 128) ?? (contains(globalUnicast, bits, 128) ? "public" : "reserved")
}

/**
 * What an IPv4 or IPv6 address (text, any case, `::` compressed, with an embedded dotted quad or a zone id) is for.
 * IPv4-mapped, NAT64 and 6to4 addresses are what the IPv4 address they reach is. Text that is no address is
 * "reserved": when in doubt, a postback does not go there.
 */
export const classifyAddress = (ip: string): AddressKind => {
  const address = parseAddress(ip)
  if (address === undefined) return "reserved"
  return address.family === 4 ? classifyIpv4(address.bits) : classifyIpv6(address.bits)
}

/** Only public addresses take postbacks. */
export const isAllowed = (kind: AddressKind): boolean => kind === "public"

const described: Record<Exclude<AddressKind, "public">, string> = {
  loopback: "a loopback address",
  private: "a private address",
  link_local: "a link-local address",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  reserved: "a reserved address"
}

/**
 * `address` when a postback may go there. `source` says how it was reached, for the reason: written as the URL's
 * host ("is a loopback address (127.0.0.1)") or found by resolving it ("resolves to a private address (10.0.0.5)").
 */
export const checkAddress = (
  address: string,
  source: "literal" | "resolved"
): Result.Result<string, PostbackUrlRejected> => {
  const kind = classifyAddress(address)
  if (kind === "public") return Result.succeed(address)
  return reject(`${source === "literal" ? "is" : "resolves to"} ${described[kind]} (${address})`)
}
