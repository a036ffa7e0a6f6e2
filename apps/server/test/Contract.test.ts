// The check every HTTP test's answers go through (support/Contract.ts): it must refuse what the OpenAPI document does
// not tell, or the drift it is there to catch would pass unseen.
import { describe, expect, it } from "vitest"
import { type Answer, check } from "./support/Contract.js"

const json = (value: unknown) => JSON.stringify(value)

const answer = (overrides: Partial<Answer> = {}): Answer => ({
  method: "GET",
  target: "/api/v2/invoices?id=nothing",
  status: 404,
  headers: new Map([
    ["content-type", "application/json"],
    ["x-request-id", "req-1"]
  ]),
  body: json({ code: "not_found", message: "no invoice with that id" }),
  ...overrides
})

describe("the contract check of every answer", () => {
  it("passes an answer the document tells", () => {
    expect(() => check(answer())).not.toThrow()
  })

  it("refuses a status the document does not list for the operation", () => {
    expect(() => check(answer({ status: 418 }))).toThrow(/418, a status the OpenAPI document does not list/)
  })

  it("refuses a body that is not the status's schema, naming what differs", () => {
    expect(() => check(answer({ body: json({ _tag: "NotFound", code: "not_found", message: "x" }) }))).toThrow(
      /must NOT have additional properties/
    )
    expect(() => check(answer({ body: json({ code: "invalid_state", message: "x" }) }))).toThrow(/equal to one of/)
  })

  it("refuses an answer without a required header, or with a header its schema refuses", () => {
    expect(() => check(answer({ headers: new Map([["content-type", "application/json"]]) }))).toThrow(
      /x-request-id is missing/
    )
    const limited = (retryAfter: string) =>
      answer({
        status: 429,
        headers: new Map([
          ["content-type", "application/json"],
          ["x-request-id", "req-1"],
          ["retry-after", retryAfter]
        ]),
        body: json({ code: "rate_limited", message: "slow down" })
      })
    expect(() => check(limited("2"))).not.toThrow()
    expect(() => check(limited("soon"))).toThrow(/retry-after/)
  })

  it("refuses a content type the document does not have for the status", () => {
    const headers = new Map([
      ["content-type", "text/plain"],
      ["x-request-id", "req-1"]
    ])
    expect(() => check(answer({ headers, body: "not found" }))).toThrow(/content-type text\/plain/)
  })

  it("holds a path asked with a method it is not served with to the contract's error JSON and Allow", () => {
    const notAllowed = (headers: ReadonlyArray<readonly [string, string]>, body: unknown) =>
      answer({
        method: "PUT",
        target: "/api/v2/invoices",
        status: 405,
        headers: new Map([["content-type", "application/json"], ["x-request-id", "req-1"], ...headers]),
        body: json(body)
      })
    const body = { code: "method_not_allowed", message: "this path is served with GET, HEAD, POST only" }
    expect(() => check(notAllowed([["allow", "GET, HEAD, POST"]], body))).not.toThrow()
    expect(() => check(notAllowed([], body))).toThrow(/allow is missing/)
    expect(() => check(notAllowed([["allow", "get"]], body))).toThrow(/allow/)
    expect(() => check(notAllowed([["allow", "GET"]], { ...body, issues: [] }))).toThrow(
      /must NOT have additional properties/
    )
  })

  it("holds a path no operation has to what the edge answers an unknown route", () => {
    expect(() => check(answer({ target: "/api/v2/nothing-here" }))).not.toThrow()
    expect(() => check(answer({ target: "/api/v2/nothing-here", status: 200, body: json({}) }))).toThrow(
      /\(no such route\) answered 200/
    )
  })
})
