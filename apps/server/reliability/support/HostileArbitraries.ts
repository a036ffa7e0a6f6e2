// The hostile input of HostileInput.ts, as fast-check arbitraries: JSON texts as written on the wire (repeated keys,
// raw numbers, deep nesting), hostile strings and numbers, bodies that are not JSON or not UTF-8, spellings of a path,
// content types and extra headers.
import * as fc from "fast-check"

/** A JSON text as written on the wire: objects are lists of entries, so a key may repeat; numbers are raw text. */
type Json =
  | { readonly raw: string }
  | { readonly items: ReadonlyArray<Json> }
  | { readonly entries: ReadonlyArray<readonly [string, Json]> }

export const render = (value: Json): string =>
  "raw" in value
    ? value.raw
    : "items" in value
      ? `[${value.items.map(render).join(",")}]`
      : `{${value.entries.map(([key, inner]) => `${JSON.stringify(key)}:${render(inner)}`).join(",")}}`

export const fromValue = (value: unknown): Json =>
  Array.isArray(value)
    ? { items: value.map(fromValue) }
    : typeof value === "object" && value !== null
      ? { entries: Object.entries(value).map(([key, inner]) => [key, fromValue(inner)] as const) }
      : { raw: JSON.stringify(value) }

export const hostileStrings = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "\udfff\ud800",
    "💸",
    "ação 😀 日本",
    "\u202e\u0301",
    "<script>alert(1)</script>",
    "'; DROP TABLE invoices; --",
    "%00",
    "../../etc/passwd",
    "__proto__",
    "constructor",
    "1e309",
    "NaN",
    "-0",
    "0x10",
    "2026-02-30",
    "2026-13-01",
    "2026-11-31",
    "0000-01-01T00:00:00Z",
    "2026-02-30T12:00:00Z",
    "2026-01-01T24:00:00Z",
    "2026-01-01T23:59:60Z",
    "9999-12-31T23:59:59.999999Z",
    "x".repeat(10_001),
    "9".repeat(400)
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 40 })
)

export const hostileNumbers = fc.oneof(
  fc.constantFrom(
    "0",
    "-0",
    "-1",
    "1e309",
    "-1e309",
    "1e-400",
    "9007199254740993",
    "123456789012345678901234567890",
    "1.5",
    "0.0000001",
    "1E2"
  ),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String)
)

const leaf: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>({ raw: "null" }, { raw: "true" }, { raw: "false" }),
  hostileNumbers.map((raw) => ({ raw })),
  hostileStrings.map((text) => ({ raw: JSON.stringify(text) }))
)

const keys = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "hasOwnProperty",
    "id",
    "method",
    "total_price_cents",
    "payer",
    "card",
    "amount",
    "items",
    "metadata",
    "number",
    "security_code",
    "token",
    "installments",
    "company_id",
    "status",
    "due_date",
    "expires_in",
    "starting_after"
  ),
  hostileStrings
)

export const { json } = fc.letrec<{ json: Json; items: Json; entries: Json }>((tie) => ({
  json: fc.oneof({ maxDepth: 5, depthSize: "small", withCrossShrink: true }, leaf, tie("items"), tie("entries")),
  items: fc.array(tie("json"), { maxLength: 4 }).map((items) => ({ items })),
  entries: fc.array(fc.tuple(keys, tie("json")), { maxLength: 5 }).map((entries) => ({ entries }))
}))

/** Nesting around the 32-level limit: just inside, at it, and past it. */
export const deep = fc.tuple(fc.integer({ min: 28, max: 40 }), fc.boolean(), leaf).map(([depth, asArrays, inner]) => {
  let value: Json = inner
  for (let i = 0; i < depth; i++) value = asArrays ? { items: [value] } : { entries: [["a", value]] }
  return value
})

/**
 * A valid body of the route with one thing made hostile: a field replaced, a key repeated, a pollution key added.
 * Replacements include the ids of real invoices, the own company's and the other's.
 */
export const mutated = (template: Record<string, unknown>, references: fc.Arbitrary<Json>) => {
  const fields = Object.keys(template)
  return fc
    .tuple(
      fc.constantFrom(...fields),
      fc.oneof(json, deep, { weight: 2, arbitrary: references }),
      keys,
      fc.integer({ min: 0, max: 3 })
    )
    .map(([field, hostile, extraKey, how]): Json => {
      const entries = Object.entries(template).map(([key, inner]) => [key, fromValue(inner)] as const)
      switch (how) {
        case 0:
          return { entries: entries.map(([key, inner]) => [key, key === field ? hostile : inner] as const) }
        case 1:
          // The same key twice: what the second says must not slip past what the first was checked for.
          return { entries: [...entries, [field, hostile]] }
        case 2:
          return { entries: [...entries, ["__proto__", { entries: [[extraKey, hostile]] }]] }
        default:
          return { entries: [...entries, [extraKey, hostile]] }
      }
    })
}

/** Percent-encodes the UTF-8 of any string (a lone surrogate becomes U+FFFD, as it would on the wire). */
export const encode = (text: string) =>
  [...Buffer.from(text, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
    )
    .join("")

export const decodeSafely = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

export const rawBodies = fc.oneof(
  fc.constantFrom("", "{", "[", "{}", "[]", "null", '{"a":', "\u0000", '{"a":1}garbage', "\ufeff{}", "{'a':1}"),
  fc.uint8Array({ maxLength: 64 })
)

/** Bytes that no UTF-8 decoder accepts: a stray continuation, a Latin-1 letter, an overlong form, a surrogate. */
const invalidUtf8 = fc.constantFrom([0x80], [0xe3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xf4, 0x90, 0x80, 0x80])

/** A body's JSON with bytes that are not UTF-8 put inside its first string, where a lenient decoder would hide them. */
export const withInvalidUtf8 = (text: string) =>
  invalidUtf8.map((bytes) => {
    const encoded = Buffer.from(text, "utf8")
    const at = encoded.indexOf(0x22) + 1
    return Buffer.concat([encoded.subarray(0, at), Buffer.from(bytes), encoded.subarray(at)])
  })

/**
 * How the path is spelled: as the contract writes it, or another way that must reach no route. The absolute form
 * (`http://host/path`) names the same route and is served as it.
 */
export const spellings = fc.oneof(
  { weight: 12, arbitrary: fc.constant("canonical" as const) },
  fc.constantFrom("absolute" as const, "upper", "double", "trailing", "semicolon", "percent", "dot", "dotdot")
)
type Spelling = typeof spellings extends fc.Arbitrary<infer S> ? S : never

export const respell = (path: string, spelling: Spelling, port: number): string => {
  const segments = path.split("/")
  const last = segments.length - 1
  switch (spelling) {
    case "canonical":
      return path
    case "absolute":
      return `http://127.0.0.1:${port}${path}`
    case "upper":
      return segments.map((segment, index) => (index === 1 ? segment.toUpperCase() : segment)).join("/")
    case "double":
      return `/${path}`
    case "trailing":
      return `${path}/`
    case "semicolon":
      return `${path};x=1`
    case "percent":
      return path.replace(/[a-z]/, (letter) => `%${letter.charCodeAt(0).toString(16)}`)
    case "dot":
      return [...segments.slice(0, last), ".", segments[last]].join("/")
    case "dotdot":
      return [...segments.slice(0, last), "x", "..", segments[last]].join("/")
  }
}

/** A route of the OpenAPI document: its method, its path as written, and the names of its query parameters. */
export interface Operation {
  readonly method: string
  readonly path: string
  readonly query: ReadonlyArray<string>
}

export const contentTypes = fc.oneof(
  { weight: 6, arbitrary: fc.constant("application/json") },
  fc.constantFrom(
    undefined,
    "application/json; charset=utf-8",
    "application/json; charset=utf-16",
    "APPLICATION/JSON",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json\u0000",
    "*/*"
  )
)

export const extraHeaders = fc.array(
  fc.tuple(
    fc.constantFrom(
      "x-request-id",
      "idempotency-key",
      "x-forwarded-for",
      "accept",
      "accept-encoding",
      "origin",
      "cookie",
      "__proto__",
      "transfer-encoding",
      "expect",
      "content-length",
      "authorization",
      "content-type",
      "x-custom"
    ),
    fc.oneof(
      hostileStrings.map((text) => text.replace(/[\r\n]/g, " ")),
      fc.constantFrom("chunked", "100-continue", "0", "-1", "99999999999", "gzip", "Bearer", "sk_test_")
    )
  ),
  { maxLength: 3 }
)
