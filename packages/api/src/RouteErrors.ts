// What a route may answer besides its own results: the answers of the edge in front of every route (SPEC 3, 10),
// so that every status a client can meet is in the contract, and a typed client decodes each into its error.
import {
  HeadersTooLargeResponse,
  IdempotencyConflictResponse,
  InternalErrorResponse,
  InvalidRequestResponse,
  NotFoundResponse,
  PayloadTooLargeResponse,
  RateLimitedResponse,
  RequestTimeoutResponse,
  UnavailableResponse,
  UnsupportedMediaTypeResponse
} from "./ApiErrorResponse.js"

/**
 * Any request: a malformed request, target or query (400), one that is too slow (408) or whose headers are too
 * large (431), and a bug (500).
 */
export const anyRequest = [
  InvalidRequestResponse,
  RequestTimeoutResponse,
  HeadersTooLargeResponse,
  InternalErrorResponse
] as const

/**
 * Any POST besides: a body that is not JSON in UTF-8 (415) or is over 1 MiB (413), and what its `Idempotency-Key`
 * meets (409 for a key reused with another body or still running, 503 when the key's store cannot be reached).
 */
export const anyPost = [
  ...anyRequest,
  PayloadTooLargeResponse,
  UnsupportedMediaTypeResponse,
  IdempotencyConflictResponse,
  UnavailableResponse
] as const

/** A route on the payer's side, behind an invoice's checkout token: limited per client address. */
export const checkoutToken = [RateLimitedResponse, NotFoundResponse, UnavailableResponse] as const
