// SPEC 3: an error is `{ code, message, issues? }` on the wire — no tag — with its status and the headers it carries,
// and a response decodes back into its tagged class by its `code`, which is how a typed client tells errors apart.
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import {
  type ApiError,
  HeadersTooLarge,
  IdempotencyConflict,
  IdempotencyConflictResponse,
  InternalError,
  InvalidRequest,
  InvalidRequestResponse,
  InvalidState,
  InvalidStateResponse,
  MethodNotAllowed,
  MethodNotAllowedResponse,
  NotFound,
  NotFoundResponse,
  PayloadTooLarge,
  RateLimited,
  RateLimitedResponse,
  RequestTimeout,
  toWire,
  Unauthorized,
  Unavailable,
  Unprocessable,
  UnsupportedMediaType
} from "../src/index.js"

const every: ReadonlyArray<readonly [ApiError, number]> = [
  [new InvalidRequest({ message: "id: is required", issues: [{ path: "id", message: "is required" }] }), 400],
  [new Unauthorized({ message: "a key is required" }), 401],
  [new NotFound({ message: "no invoice with that id" }), 404],
  [new MethodNotAllowed({ message: "POST is not served here", allow: ["GET", "HEAD"] }), 405],
  [new RequestTimeout({ message: "too slow" }), 408],
  [new InvalidState({ message: "not paid" }), 409],
  [new IdempotencyConflict({ code: "idempotency_in_progress", message: "still running" }), 409],
  [new PayloadTooLarge({ message: "too big" }), 413],
  [new UnsupportedMediaType({ message: "not JSON" }), 415],
  [new Unprocessable({ code: "total_mismatch", message: "items do not add up" }), 422],
  [new RateLimited({ message: "slow down", retryAfter: 3 }), 429],
  [new HeadersTooLarge({ message: "headers too large" }), 431],
  [new InternalError({ message: "a bug" }), 500],
  [new Unavailable({ code: "acquirer_unavailable", message: "no acquirer" }), 503]
]

describe("the contract's errors on the wire", () => {
  it("are code, message and (for 400) issues, with no tag, at their status", () => {
    for (const [error, status] of every) {
      const wire = toWire(error)
      expect(wire.status, error._tag).toBe(status)
      expect(Object.keys(wire.body).sort(), error._tag).toEqual(
        status === 400 ? ["code", "issues", "message"] : ["code", "message"]
      )
      expect(wire.body.code, error._tag).toBe(error.code)
    }
  })

  it("carry WWW-Authenticate on a 401, Allow on a 405 and Retry-After on a 429", () => {
    expect(toWire(new Unauthorized({ message: "no key" })).headers).toEqual({ "www-authenticate": "Bearer" })
    expect(
      toWire(new MethodNotAllowed({ message: "PUT is not served here", allow: ["GET", "HEAD", "POST"] })).headers
    ).toEqual({ allow: "GET, HEAD, POST" })
    expect(toWire(new RateLimited({ message: "slow down", retryAfter: 7 })).headers).toEqual({ "retry-after": "7" })
    expect(toWire(new NotFound({ message: "no such route" })).headers).toEqual({})
  })

  it("decode into their tagged classes without a tag, telling a status's errors apart by code", () => {
    const notFound = Schema.decodeUnknownSync(NotFoundResponse)({ code: "not_found", message: "nothing" })
    expect(notFound).toBeInstanceOf(NotFound)
    expect(notFound._tag).toBe("NotFound")

    const conflict = Schema.decodeUnknownSync(Schema.Union([InvalidStateResponse, IdempotencyConflictResponse]))
    expect(conflict({ code: "idempotency_in_progress", message: "running" })).toBeInstanceOf(IdempotencyConflict)
    expect(conflict({ code: "invalid_state", message: "not paid" })).toBeInstanceOf(InvalidState)
    expect(() => conflict({ code: "not_found", message: "x" })).toThrow()

    const limited = Schema.decodeUnknownSync(RateLimitedResponse)({
      body: { code: "rate_limited", message: "slow down" },
      headers: { "retry-after": "2" }
    })
    expect(limited).toMatchObject({ _tag: "RateLimited", retryAfter: 2 })

    const notAllowed = Schema.decodeUnknownSync(MethodNotAllowedResponse)({
      body: { code: "method_not_allowed", message: "DELETE is not served here" },
      headers: { allow: "GET, HEAD" }
    })
    expect(notAllowed).toMatchObject({ _tag: "MethodNotAllowed", allow: ["GET", "HEAD"] })
  })

  it("have at least one issue on every 400 (SPEC 3: one entry per problem)", () => {
    const decode = Schema.decodeUnknownSync(InvalidRequestResponse)
    expect(() => decode({ code: "invalid_request", message: "the body is not JSON", issues: [] })).toThrow()
    expect(
      decode({
        code: "invalid_request",
        message: "is not valid JSON",
        issues: [{ path: "", message: "is not valid JSON" }]
      })
    ).toBeInstanceOf(InvalidRequest)
  })
})
