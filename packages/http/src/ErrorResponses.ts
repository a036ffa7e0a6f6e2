// The contract's error responses (SPEC 3) that the edge writes itself, for requests it refuses before a handler
// runs: each encoded by the contract's own response for it, so that its status, body and headers are exactly what
// the handlers' errors are encoded to and what the OpenAPI document says.
import { type ApiError, NotFound, toWire } from "@fatura/api"
import { HttpServerResponse } from "effect/http"

/** One of the contract's errors as its response: `{ code, message, issues? }` with its status and headers. */
export const of = (error: ApiError) => {
  const wire = toWire(error)
  return HttpServerResponse.jsonUnsafe(wire.body, { status: wire.status, headers: wire.headers })
}

/** What a path no route answers gets, whichever way it was spelled. */
export const noSuchRoute = () => of(new NotFound({ message: "no such route" }))
