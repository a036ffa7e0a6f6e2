// The table from the application's failures to the contract's errors: a run that lost its Idempotency-Key's lease to a
// repeat is answered as the request in progress it has become, as the repeat holding the key is.
import { toWire } from "@fatura/api"
import { LeaseLost, Unauthenticated } from "@fatura/application"
import { describe, expect, it } from "vitest"
import { toResponse } from "../src/FailureResponses.js"

describe("toResponse", () => {
  it("answers a run whose lease was taken over 409 idempotency_in_progress", () => {
    const wire = toWire(toResponse(new LeaseLost()))
    expect([wire.status, wire.body.code]).toEqual([409, "idempotency_in_progress"])
    expect(wire.body.message).toBe("a request with this Idempotency-Key is still running")
  })

  it("answers a missing credential 401, naming the scheme it asks for", () => {
    const wire = toWire(toResponse(new Unauthenticated({ credential: "publicToken", reason: "missing" })))
    expect([wire.status, wire.body.code, wire.body.message]).toEqual([
      401,
      "unauthorized",
      "a valid public token is required: Authorization: Bearer pk_…"
    ])
  })
})
