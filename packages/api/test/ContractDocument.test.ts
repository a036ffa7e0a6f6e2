// SPEC 11.1: the OpenAPI document tells every answer of every route — the edge's statuses and headers, integer
// parameters as integers — and writes the invoice once, as a component the operations refer to.
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { OpenApi } from "effect/http-api"
import { FaturaApi, PageLimit } from "../src/index.js"

const document = OpenApi.fromApi(FaturaApi) as any

const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ method, path, operation }))
)

describe("the OpenAPI document", () => {
  it("lists on every operation what the edge answers any request, with X-Request-Id on every response", () => {
    for (const { method, path, operation } of operations) {
      expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(
        expect.arrayContaining(["400", "408", "431", "500"])
      )
      for (const response of Object.values(operation.responses) as Array<any>) {
        expect(response.headers["x-request-id"], `${method} ${path}`).toEqual({
          $ref: "#/components/headers/RequestId"
        })
      }
    }
  })

  it("lists on every POST its body's and its Idempotency-Key's answers, and takes the key", () => {
    const posts = operations.filter(({ method }) => method === "post")
    expect(posts.length).toBeGreaterThanOrEqual(10)
    for (const { path, operation } of posts) {
      expect(Object.keys(operation.responses), path).toEqual(expect.arrayContaining(["409", "413", "415", "503"]))
      expect(operation.parameters, path).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" })
      expect(JSON.stringify(operation.responses["409"]), path).toContain("IdempotencyConflict")
    }
  })

  it("says which header a 401 and a 429 carry", () => {
    const company = document.paths["/api/v2/company"].get.responses
    expect(company["401"].headers["www-authenticate"].schema).toMatchObject({ type: "string", enum: ["Bearer"] })
    expect(company["429"].headers["retry-after"].schema).toMatchObject({ type: "integer", minimum: 1 })
  })

  it("declares every credential as an HTTP bearer scheme, spelled as documentation tools match it", () => {
    // `Bearer` (capitalised) made the docs' code samples send `Authorization: Basic username:password`.
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      "metricsToken",
      "publicToken",
      "secretKey"
    ])
    for (const scheme of Object.values(document.components.securitySchemes) as Array<any>) {
      expect(scheme).toMatchObject({ type: "http", scheme: "bearer" })
    }
    expect(document.paths["/api/v2/invoices"].post.security).toEqual([{ secretKey: [] }])
    expect(document.paths["/api/v2/public/cards"].post.security).toEqual([{ publicToken: [] }])
  })

  it("states integer parameters as integers with their range, and the checkout token as required", () => {
    const parameter = (path: string, method: string, name: string) =>
      document.paths[path][method].parameters.find((candidate: any) => candidate.name === name)
    expect(parameter("/api/v2/invoices/list", "get", "limit").schema).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 100,
      description: "How many to return, 1 to 100; 20 unless given."
    })
    expect(parameter("/api/v2/webhooks/deliveries/{id}/retry", "post", "id").schema).toMatchObject({
      type: "integer",
      minimum: 1
    })
    expect(parameter("/api/v2/public/invoices/{secureId}", "get", "token").required).toBe(true)
  })

  it("decodes an integer parameter from its text, and nothing else", () => {
    const decode = Schema.decodeUnknownOption(PageLimit)
    expect(decode("20")._tag).toBe("Some")
    for (const text of ["0", "101", "020", "2.5", "-1", "abc", ""]) expect(decode(text)._tag, text).toBe("None")
  })

  it("writes the invoice once, as a component, with money as integers and timestamps as date-times", () => {
    const text = JSON.stringify(document)
    expect(text.match(/"token_checkout":/g)).toHaveLength(1)
    expect(document.paths["/api/v2/invoices"].post.responses["201"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/InvoiceTransaction"
    })
    const invoice = document.components.schemas.InvoiceTransaction
    const fee = document.components.schemas.Fee
    expect(fee.properties.estimatedFee.type).toBe("integer")
    expect(fee.properties.spreadPercentage.type).toBe("number")
    expect(invoice.properties.createdAt).toMatchObject({ type: "string", format: "date-time" })
    expect(text).not.toContain('"Infinity"')
    expect(invoice.properties.splits).toMatchObject({ type: "array", maxItems: 0 })
  })
})
