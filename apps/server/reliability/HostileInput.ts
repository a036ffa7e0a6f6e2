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
import {
  contentTypes,
  decodeSafely,
  deep,
  encode,
  extraHeaders,
  fromValue,
  hostileNumbers,
  hostileStrings,
  json,
  mutated,
  type Operation,
  rawBodies,
  render,
  respell,
  spellings,
  withInvalidUtf8
} from "./support/HostileArbitraries.js"
import { boletoPayer, cardField, payer, testCards } from "./support/Journal.js"
import { makeWorld, type World } from "./support/World.js"

const runsPerRoute = 100

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
