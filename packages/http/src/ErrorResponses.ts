// The contract's error responses (SPEC 3) that the edge writes itself, for requests it refuses before a handler
// runs: the same bodies the handlers' errors are encoded to.
import { type Forbidden, type InvalidRequest, NotFound, type Unauthorized, type Unavailable } from "@fatura/api"
import { HttpServerResponse } from "effect/http"

/** A JSON error body with its status. */
export const json = (status: number, body: Readonly<Record<string, unknown>>) =>
  HttpServerResponse.jsonUnsafe(body, { status })

type EdgeError = InvalidRequest | Unauthorized | Forbidden | NotFound | Unavailable

const statuses: Record<EdgeError["_tag"], number> = {
  InvalidRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Unavailable: 503
}

/** One of the contract's errors, encoded as its schema encodes it (`_tag`, `code`, `message`, `issues`). */
export const of = (error: EdgeError) => {
  const body = { _tag: error._tag, code: error.code, message: error.message }
  return json(statuses[error._tag], "issues" in error ? { ...body, issues: error.issues } : body)
}

/** What a path no route answers gets, whichever way it was spelled. */
export const noSuchRoute = () => of(new NotFound({ message: "no such route" }))
