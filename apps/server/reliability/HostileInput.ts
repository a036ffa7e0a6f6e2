// SPEC 3, 4 and 10 against input nobody should send: for every route of the OpenAPI document (and the checkout
// page, and routes that do not exist), fast-check generates bodies, query strings, headers and spellings of the path
// — wrong types, huge and non-finite numbers, impossible dates, deep nesting, unicode, NUL, lone surrogates and bytes
// that are not UTF-8, duplicate keys and headers, prototype-pollution keys, broken JSON, wrong content types and
// credentials, paths in another case or with doubled slashes, dot segments or percent-encoding. Whatever arrives: no
// 5xx, every API error in the contract's JSON, no path spelled other than as the contract writes it answered by a
// route, no invoice changed that the request did not name, nothing of another company's.
import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { freshLoopback, type RawReply, send } from "../test/support/RawHttp.js"
import { boletoPayer, cardField, payer, testCards } from "./support/Journal.js"
import { makeWorld, type World } from "./support/World.js"

const runsPerRoute = 100

/** A JSON text as written on the wire: objects are lists of entries, so a key may repeat; numbers are raw text. */
type Json =
  | { readonly raw: string }
  | { readonly items: ReadonlyArray<Json> }
  | { readonly entries: ReadonlyArray<readonly [string, Json]> }

const render = (value: Json): string =>
  "raw" in value
    ? value.raw
    : "items" in value
      ? `[${value.items.map(render).join(",")}]`
      : `{${value.entries.map(([key, inner]) => `${JSON.stringify(key)}:${render(inner)}`).join(",")}}`

const fromValue = (value: unknown): Json =>
  Array.isArray(value)
    ? { items: value.map(fromValue) }
    : typeof value === "object" && value !== null
      ? { entries: Object.entries(value).map(([key, inner]) => [key, fromValue(inner)] as const) }
      : { raw: JSON.stringify(value) }

const hostileStrings = fc.oneof(
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

const hostileNumbers = fc.oneof(
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

const { json } = fc.letrec<{ json: Json; items: Json; entries: Json }>((tie) => ({
  json: fc.oneof({ maxDepth: 5, depthSize: "small", withCrossShrink: true }, leaf, tie("items"), tie("entries")),
  items: fc.array(tie("json"), { maxLength: 4 }).map((items) => ({ items })),
  entries: fc.array(fc.tuple(keys, tie("json")), { maxLength: 5 }).map((entries) => ({ entries }))
}))

/** Nesting around the 32-level limit: just inside, at it, and past it. */
const deep = fc.tuple(fc.integer({ min: 28, max: 40 }), fc.boolean(), leaf).map(([depth, asArrays, inner]) => {
  let value: Json = inner
  for (let i = 0; i < depth; i++) value = asArrays ? { items: [value] } : { entries: [["a", value]] }
  return value
})

/**
 * A valid body of the route with one thing made hostile: a field replaced, a key repeated, a pollution key added.
 * Replacements include the ids of real invoices, the own company's and the other's.
 */
const mutated = (template: Record<string, unknown>, references: fc.Arbitrary<Json>) => {
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
const encode = (text: string) =>
  [...Buffer.from(text, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
    )
    .join("")

const decodeSafely = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const rawBodies = fc.oneof(
  fc.constantFrom("", "{", "[", "{}", "[]", "null", '{"a":', "\u0000", '{"a":1}garbage', "\ufeff{}", "{'a':1}"),
  fc.uint8Array({ maxLength: 64 })
)

/** Bytes that no UTF-8 decoder accepts: a stray continuation, a Latin-1 letter, an overlong form, a surrogate. */
const invalidUtf8 = fc.constantFrom([0x80], [0xe3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xf4, 0x90, 0x80, 0x80])

/** A body's JSON with bytes that are not UTF-8 put inside its first string, where a lenient decoder would hide them. */
const withInvalidUtf8 = (text: string) =>
  invalidUtf8.map((bytes) => {
    const encoded = Buffer.from(text, "utf8")
    const at = encoded.indexOf(0x22) + 1
    return Buffer.concat([encoded.subarray(0, at), Buffer.from(bytes), encoded.subarray(at)])
  })

/**
 * How the path is spelled: as the contract writes it, or another way that must reach no route. The absolute form
 * (`http://host/path`) names the same route and is served as it.
 */
const spellings = fc.oneof(
  { weight: 12, arbitrary: fc.constant("canonical" as const) },
  fc.constantFrom("absolute" as const, "upper", "double", "trailing", "semicolon", "percent", "dot", "dotdot")
)
type Spelling = typeof spellings extends fc.Arbitrary<infer S> ? S : never

const respell = (path: string, spelling: Spelling, port: number): string => {
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

interface Operation {
  readonly method: string
  readonly path: string
  readonly query: ReadonlyArray<string>
}

const contentTypes = fc.oneof(
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

const extraHeaders = fc.array(
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

export const hostileInputScenario = () =>
  describe("hostile input on every route", () => {
    let world: World
    let operations: ReadonlyArray<Operation>
    let port: number

    beforeAll(async () => {
      world = await makeWorld("hostile")
      port = Number(new URL(world.service.baseUrl).port)
      const document = (await world.service.request("GET", "/openapi.json")).body
      operations = [
        ...Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
          Object.entries(methods).map(([method, operation]) => ({
            method: method.toUpperCase(),
            path,
            query: ((operation.parameters ?? []) as Array<any>).filter((p) => p.in === "query").map((p) => p.name)
          }))
        ),
        { method: "GET", path: "/checkout/{secureId}", query: ["token"] },
        { method: "POST", path: "/api/v2/no-such-route", query: [] }
      ]
    })
    afterAll(async () => {
      await world?.service.stop()
      await world?.database.close()
    })

    /** Every invoice's row, by id: what a request may change only when it names the invoice. */
    const invoiceRows = async () =>
      new Map(
        (await world.database.query("SELECT id, secure_id, company_id, to_jsonb(i)::text AS row FROM invoices i")).map(
          (row) => [
            Number(row.id),
            { secureId: String(row.secure_id), companyId: Number(row.company_id), row: row.row }
          ]
        )
      )

    const templateOf = (operation: Operation): Record<string, unknown> | undefined => {
      const a = world.a
      switch (`${operation.method} ${operation.path}`) {
        case "POST /api/v2/invoices":
          return { method: "pix", total_price_cents: 1_500, payer, external_ref: "hostile" }
        case "POST /api/v2/invoices/refund":
          return { id: a.cardPaid.secureId, amount: 100 }
        case "POST /api/v2/sandbox/invoices/pay":
        case "POST /api/v2/sandbox/invoices/expire":
          return { id: a.pix.secureId }
        case "POST /api/v2/sandbox/invoices/chargeback":
          return { id: a.cardPaid.secureId }
        case "POST /api/v2/public/cards": {
          const { number, first_name, last_name, month, year, security_code } = cardField(testCards.approved)
          return { number, first_name, last_name, month, year, security_code }
        }
        case "POST /api/v2/public/invoices/{secureId}/pay":
          return { card: { token: a.cardToken, installment: 1, eci: "05", cavv: "AAABBJg0VhI0VniQEjRWAAAAAAA=" } }
        default:
          return operation.method === "POST" ? { id: a.pix.secureId, payer: boletoPayer } : undefined
      }
    }

    const requestOf = (operation: Operation) => {
      const a = world.a
      const pathValues = fc.oneof(
        fc.constantFrom(
          a.pix.secureId,
          a.cardPending.secureId,
          a.boleto.secureId,
          a.pix.secureId.toUpperCase(),
          String(a.pix.id),
          String(a.deliveryId),
          world.b.pix.secureId
        ),
        hostileStrings.map(encode),
        fc.constantFrom(
          "%00",
          "..%2F..%2F",
          "%ZZ",
          "%C3%28",
          "%FF",
          "1e309",
          "-1",
          "0",
          "99999999999999999999",
          "__proto__"
        )
      )
      const queryValues = fc.oneof(
        fc.constantFrom(a.pix.secureId, String(a.pix.id), a.pix.token, a.eventId, a.boleto.token, "100", "1"),
        hostileStrings,
        hostileNumbers
      )
      const queryPairs = fc.array(
        fc.tuple(
          fc.oneof(fc.constantFrom(...operation.query, "__proto__", "constructor[prototype][x]", "id[]"), fc.string()),
          queryValues
        ),
        { maxLength: 5 }
      )
      const credentials = fc.constantFrom(
        `Bearer ${a.testKey}`,
        `Bearer ${a.testKey}`,
        `Bearer ${a.liveKey}`,
        `Bearer ${a.publicToken}`,
        `bearer ${a.testKey}`,
        `Bearer  ${a.testKey} `,
        "Bearer sk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        `Basic ${Buffer.from(`${a.testKey}:`).toString("base64")}`,
        "Bearer",
        undefined
      )
      const template = templateOf(operation)
      const references = fc.constantFrom(
        ...[a, world.b].flatMap((tenant) =>
          [tenant.pix, tenant.boleto, tenant.cardPending, tenant.cardPaid].flatMap((invoice) => [
            fromValue(invoice.id),
            fromValue(invoice.secureId)
          ])
        )
      )
      const body = fc.oneof(
        ...(template === undefined
          ? [fc.constant(undefined), json.map(render), rawBodies]
          : [
              fc.constant(JSON.stringify(template)),
              mutated(template, references).map(render),
              mutated(template, references).map(render),
              json.map(render),
              deep.map(render),
              withInvalidUtf8(JSON.stringify(template)),
              rawBodies
            ])
      )
      return fc.record({
        method: fc.oneof(
          { weight: 8, arbitrary: fc.constant(operation.method) },
          { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS") }
        ),
        pathValue: pathValues,
        spelling: spellings,
        query: queryPairs,
        authorization: credentials,
        contentType: contentTypes,
        headers: extraHeaders,
        body
      })
    }

    type Generated = ReturnType<typeof requestOf> extends fc.Arbitrary<infer R> ? R : never

    const wire = (operation: Operation, generated: Generated) => {
      const path = respell(operation.path.replace(/\{[^}]+\}/g, generated.pathValue), generated.spelling, port)
      const query = generated.query.map(([name, value]) => `${encode(name)}=${encode(value)}`).join("&")
      const headers: Array<[string, string]> = []
      if (generated.authorization !== undefined) headers.push(["authorization", generated.authorization])
      if (generated.contentType !== undefined) headers.push(["content-type", generated.contentType])
      headers.push(...generated.headers)
      return {
        method: generated.method,
        target: `${path}${query === "" ? "" : `?${query}`}`,
        headers,
        body: generated.body,
        localAddress: freshLoopback()
      }
    }

    /** The invoices a request names, by secureId or by numeric id, anywhere in it. */
    const names = (request: ReturnType<typeof wire>, invoice: { id: number; secureId: string }) => {
      const text = [
        decodeSafely(request.target),
        request.target,
        ...request.headers.map(([name, value]) => `${name}:${value}`),
        typeof request.body === "string" ? request.body : Buffer.from(request.body ?? "").toString("utf8")
      ]
        .join(" ")
        .toLowerCase()
      // A number inside a word (a key, a request id) names nothing.
      return text.includes(invoice.secureId) || new RegExp(`(?<!\\w)${invoice.id}(?!\\w)`).test(text)
    }

    it("never answers 5xx, answers errors in the contract's JSON, and changes no invoice it was not told of", async () => {
      const bBefore = await world.snapshot(world.b.companyId)
      const counts = new Map<number, number>()
      for (const operation of operations) {
        await fc.assert(
          fc.asyncProperty(requestOf(operation), async (generated) => {
            const request = wire(operation, generated)
            const before = await invoiceRows()
            let reply: RawReply
            try {
              reply = await send(port, request)
            } catch (error) {
              throw new Error(`${request.method} ${request.target}: no answer (${String(error)})`)
            }
            counts.set(reply.status, (counts.get(reply.status) ?? 0) + 1)
            const where = `${request.method} ${request.target} → ${reply.status} ${reply.text.slice(0, 300)}`
            expect(reply.status, where).toBeLessThan(500)
            // Another spelling reaches no route: 404, unless Node refused the request before anything read it.
            if (generated.spelling !== "canonical" && generated.spelling !== "absolute") {
              const refusedByNode = reply.status === 400 && reply.body?.message === "the request could not be parsed"
              expect(refusedByNode ? 404 : reply.status, `${where}: another spelling of the path reached a route`).toBe(
                404
              )
            }
            if (reply.status >= 400 && request.method !== "HEAD" && /^(http:\/\/[^/]+)?\/api\//i.test(request.target)) {
              expect(typeof reply.body?.code, where).toBe("string")
              expect(typeof reply.body?.message, where).toBe("string")
            }
            const after = await invoiceRows()
            for (const [id, was] of before) {
              const now = after.get(id)
              if (now?.row === was.row) continue
              expect(was.companyId, `${where}: changed another company's invoice ${id}`).toBe(world.a.companyId)
              expect(names(request, { id, secureId: was.secureId }), `${where}: changed invoice ${id}`).toBe(true)
            }
            for (const [id, invoice] of after) {
              if (!before.has(id))
                expect(invoice.companyId, `${where}: created for another company`).toBe(world.a.companyId)
            }
          }),
          { numRuns: propertyRuns(runsPerRoute) }
        )
      }
      console.info(
        `hostile: ${operations.length} routes × ${propertyRuns(runsPerRoute)} requests; statuses ${JSON.stringify(Object.fromEntries([...counts].sort(([x], [y]) => x - y)))}`
      )
      expect(await world.snapshot(world.b.companyId)).toBe(bBefore)
    })
  })
