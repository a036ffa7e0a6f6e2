// SPEC 2 on every route of the contract, read from the server's own OpenAPI document (so that a route added
// later is covered, or fails here until it is): company B, with its own credentials, names one of company A's
// objects in a path parameter, a query parameter or a body field. The answer is 404 `not_found` (a card token: the
// 400 of an unknown token), exactly what an unknown object gets, and nothing of A's changes. Routes that name no object must not show or change A's either.
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { payer } from "./support/Journal.js"
import { type InvoiceRef, makeWorld, type Tenant, type World } from "./support/World.js"

interface Operation {
  readonly method: string
  readonly path: string
  readonly security: ReadonlyArray<string>
  readonly pathParameters: ReadonlyArray<string>
  readonly queryParameters: ReadonlyArray<{ readonly name: string; readonly required: boolean }>
  readonly bodyProperties: ReadonlyArray<string> | undefined
  readonly requiredBody: ReadonlyArray<string>
}

const operationsOf = (document: any): ReadonlyArray<Operation> => {
  const resolve = (schema: any): any =>
    schema?.$ref === undefined ? schema : resolve(document.components.schemas[schema.$ref.split("/").pop()])
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const parameters: Array<any> = operation.parameters ?? []
      const body = resolve(operation.requestBody?.content?.["application/json"]?.schema)
      return {
        method: method.toUpperCase(),
        path,
        security: (operation.security ?? document.security ?? []).flatMap((entry: object) => Object.keys(entry)),
        pathParameters: parameters.filter((p) => p.in === "path").map((p) => p.name),
        queryParameters: parameters
          .filter((p) => p.in === "query")
          .map((p) => ({ name: p.name, required: !!p.required })),
        bodyProperties: body === undefined ? undefined : Object.keys(body.properties ?? {}),
        requiredBody: body?.required ?? []
      }
    })
  )
}

/** The invoice a route acts on: one in a state where the route would succeed for its owner. */
const invoiceFor = (operation: Operation, tenant: Tenant): InvoiceRef => {
  const route = `${operation.method} ${operation.path}`
  if (route.endsWith("/boleto.pdf")) return tenant.boleto
  if (route.endsWith("/pay") && route.includes("/public/")) return tenant.cardPending
  if (route.endsWith("/refund") || route.endsWith("/chargeback") || route.includes("/receivables")) {
    return tenant.cardPaid
  }
  return tenant.pix
}

interface Slot {
  readonly in: "path" | "query" | "body"
  readonly name: string
  readonly kind:
    | "invoice"
    | "checkout-token"
    | "event"
    | "delivery"
    | "endpoint"
    | "operation"
    | "receivable"
    | "withdrawal"
    | "card-token"
}

/** Sent in every request of the route: the path, what the route requires, and the payer's checkout token. */
const isRequired = (operation: Operation, slot: Slot) =>
  slot.in === "path" ||
  slot.kind === "checkout-token" ||
  (slot.in === "query"
    ? operation.queryParameters.some((parameter) => parameter.name === slot.name && parameter.required)
    : operation.requiredBody.includes(slot.name))

/** What object a parameter names, by where it is and what it is called; undefined: it names none. */
const slotOf = (operation: Operation, where: Slot["in"], name: string): Slot | "not a reference" | undefined => {
  const inEvents = operation.path.includes("/events")
  const inDeliveries = operation.path.includes("/webhooks/deliveries")
  const inEndpoints = operation.path.includes("/webhooks/endpoints")
  const inOperations = operation.path.includes("/balance/operations")
  const inReceivables = operation.path.includes("/receivables")
  const inWithdrawals = operation.path.includes("/withdrawals")
  if (where === "path" && name === "secureId") return { in: where, name, kind: "invoice" }
  if (where === "path" && name === "id" && inDeliveries) return { in: where, name, kind: "delivery" }
  if (where === "path" && name === "id" && inEndpoints) return { in: where, name, kind: "endpoint" }
  if (where === "path" && name === "id" && inWithdrawals) return { in: where, name, kind: "withdrawal" }
  if (where === "query" && name === "token") return { in: where, name, kind: "checkout-token" }
  if (where !== "path" && (name === "id" || name === "invoice_id")) return { in: where, name, kind: "invoice" }
  if (where === "query" && name === "event_id") return { in: where, name, kind: "event" }
  if (where === "query" && name === "starting_after") {
    const kind = inEvents
      ? "event"
      : inOperations
        ? "operation"
        : inReceivables
          ? "receivable"
          : inWithdrawals
            ? "withdrawal"
            : "invoice"
    return { in: where, name, kind }
  }
  if (where === "body" && name === "card" && operation.path.includes("/public/invoices/")) {
    return { in: where, name, kind: "card-token" }
  }
  // Filters and fields that name no object of the service (the merchant's own reference is free text, a
  // documentation asset is a file of the documentation page, a webhook endpoint's URL is the merchant's).
  const plain = [
    "balance",
    "url",
    "events",
    "asset",
    "limit",
    "status",
    "payment_method",
    "created_gte",
    "created_lte",
    "payment_date_gte",
    "payment_date_lte",
    "external_ref",
    "type",
    "amount",
    "reason"
  ]
  if (plain.includes(name)) return "not a reference"
  if (where === "body" && operation.path === "/api/v2/invoices") return "not a reference"
  if (where === "body" && operation.path === "/api/v2/public/cards") return "not a reference"
  return undefined
}

/** The parameters of a route that name an object. */
const slotsOf = (operation: Operation): ReadonlyArray<Slot> =>
  [
    ...operation.pathParameters.map((name) => slotOf(operation, "path", name)),
    ...operation.queryParameters.map(({ name }) => slotOf(operation, "query", name)),
    ...(operation.bodyProperties ?? []).map((name) => slotOf(operation, "body", name))
  ].filter((slot): slot is Slot => typeof slot === "object")

const unknownValue = (slot: Slot, numeric: boolean): string | number => {
  switch (slot.kind) {
    case "invoice":
      return numeric ? 9_000_000_000 : randomUUID()
    case "event":
      return `evt_${randomUUID()}`
    case "delivery":
      return 9_000_000_000
    case "endpoint":
      return `we_${randomUUID()}`
    case "withdrawal":
      return `wd_${randomUUID()}`
    case "operation":
    case "receivable":
      return 9_000_000_000
    case "checkout-token":
      return "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    case "card-token":
      return "card_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
  }
}

const ownValue = (slot: Slot, operation: Operation, tenant: Tenant, numeric: boolean): string | number => {
  const invoice = invoiceFor(operation, tenant)
  switch (slot.kind) {
    case "invoice":
      return numeric ? invoice.id : invoice.secureId
    case "event":
      return tenant.eventId
    case "delivery":
      return tenant.deliveryId
    case "endpoint":
      return tenant.endpointId
    case "operation":
      return tenant.operationId
    case "receivable":
      return tenant.receivableId
    case "withdrawal":
      return tenant.withdrawalId
    case "checkout-token":
      return invoice.token
    case "card-token":
      return tenant.cardToken
  }
}

/** The request B makes, with `override` in one slot and B's own values in the others it needs. */
const requestOf = (
  operation: Operation,
  slots: ReadonlyArray<Slot>,
  b: Tenant,
  override?: { readonly slot: Slot; readonly value: string | number }
) => {
  const slotValue = (slot: Slot) =>
    override !== undefined && override.slot === slot ? override.value : ownValue(slot, operation, b, false)
  let path = operation.path
  const query = new URLSearchParams()
  const body: Record<string, unknown> = {}
  for (const slot of slots) {
    if (override?.slot !== slot && !isRequired(operation, slot)) continue
    const value = slotValue(slot)
    if (slot.in === "path") path = path.replace(`{${slot.name}}`, encodeURIComponent(String(value)))
    else if (slot.in === "query") query.set(slot.name, String(value))
    else if (slot.kind === "card-token") body.card = { token: value, eci: "05", cavv: "AAABBJg0VhI0VniQEjRWAAAAAAA=" }
    else body[slot.name] = value
  }
  if (operation.path === "/api/v2/invoices" && operation.method === "POST") {
    Object.assign(body, { method: "pix", total_price_cents: 1_000, payer })
  }
  const search = query.toString()
  return {
    target: `${path}${search === "" ? "" : `?${search}`}`,
    body: operation.bodyProperties === undefined ? undefined : body
  }
}

const credentialOf = (operation: Operation, b: Tenant) =>
  operation.security.includes("secretKey")
    ? b.testKey
    : operation.security.includes("publicToken")
      ? b.publicToken
      : undefined

/**
 * A response as far as a caller could compare two: the request id and the date always differ, and so does the nonce
 * of a page's content security policy.
 */
const observable = (status: number, text: string) => ({ status, text: text.replace(/nonce="[^"]*"/g, 'nonce=""') })

export const tenancyScenario = () =>
  describe("company B's credentials on company A's objects, on every route of the OpenAPI document", () => {
    let world: World
    let operations: ReadonlyArray<Operation>

    beforeAll(async () => {
      world = await makeWorld("tenancy")
      const document = await world.service.request("GET", "/openapi.json")
      expect(document.status).toBe(200)
      operations = operationsOf(document.body)
    })
    afterAll(async () => {
      await world?.service.stop()
      await world?.database.close()
    })

    const send = (operation: Operation, request: ReturnType<typeof requestOf>) =>
      world.service.request(operation.method, request.target, {
        key: credentialOf(operation, world.b),
        body: request.body
      })

    it("knows what every parameter of every route names", () => {
      expect(operations.length).toBeGreaterThanOrEqual(20)
      const unknown = operations.flatMap((operation) => [
        ...operation.pathParameters
          .filter((name) => slotOf(operation, "path", name) === undefined)
          .map((name) => `${operation.method} ${operation.path}: path ${name}`),
        ...operation.queryParameters
          .filter(({ name }) => slotOf(operation, "query", name) === undefined)
          .map(({ name }) => `${operation.method} ${operation.path}: query ${name}`),
        ...(operation.bodyProperties ?? [])
          .filter((name) => slotOf(operation, "body", name) === undefined)
          .map((name) => `${operation.method} ${operation.path}: body ${name}`)
      ])
      // A new parameter must be classified above: the object it names, or none.
      expect(unknown).toEqual([])
    })

    it("answers 404 not_found, exactly like an unknown object, and changes nothing of A's", async () => {
      const before = await world.snapshot(world.a.companyId)
      const tried: Array<string> = []
      for (const operation of operations) {
        const slots = slotsOf(operation)
        for (const slot of slots) {
          for (const numeric of slot.kind === "invoice" && slot.in !== "path" ? [false, true] : [false]) {
            const foreign = await send(
              operation,
              requestOf(operation, slots, world.b, {
                slot,
                value: ownValue(slot, operation, world.a, numeric)
              })
            )
            const unknown = await send(
              operation,
              requestOf(operation, slots, world.b, { slot, value: unknownValue(slot, numeric) })
            )
            const where = `${operation.method} ${operation.path} with A's ${slot.kind} in ${slot.in} ${slot.name}${numeric ? " (numeric)" : ""}`
            tried.push(where)
            // A card token is not looked up like an object: unknown, used, expired and foreign tokens are one 400.
            const expected = slot.kind === "card-token" ? 400 : 404
            expect(foreign.status, `${where}: ${foreign.text}`).toBe(expected)
            // A page for people (the checkout page) says so in its own words; the JSON routes with the code.
            if (expected === 404 && foreign.body !== undefined) expect(foreign.body?.code, where).toBe("not_found")
            expect(observable(foreign.status, foreign.text), where).toEqual(observable(unknown.status, unknown.text))
          }
        }
      }
      console.info(`tenancy: ${tried.length} foreign references tried`)
      expect(tried.length).toBeGreaterThan(15)
      expect(await world.snapshot(world.a.companyId)).toBe(before)
    })

    it("shows nothing of A's on the routes that name no object, and changes nothing of A's", async () => {
      const before = await world.snapshot(world.a.companyId)
      const secrets = [
        world.a.name,
        world.a.testKey,
        world.a.publicToken,
        world.a.cardToken,
        world.a.eventId,
        ...[world.a.pix, world.a.boleto, world.a.cardPending, world.a.cardPaid].flatMap((invoice) => [
          invoice.secureId,
          invoice.token
        ])
      ]
      let tried = 0
      for (const operation of operations) {
        const slots = slotsOf(operation)
        if (slots.length > 0) continue
        tried += 1
        const reply = await send(operation, requestOf(operation, [], world.b))
        const where = `${operation.method} ${operation.path}`
        expect(reply.status, `${where}: ${reply.text}`).toBeLessThan(500)
        for (const secret of secrets) expect(reply.text.includes(secret), `${where} shows ${secret}`).toBe(false)
      }
      expect(tried).toBeGreaterThan(5)
      expect(await world.snapshot(world.a.companyId)).toBe(before)
    })
  })
