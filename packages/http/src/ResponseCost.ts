// What a request of the merchant's API costs its key's rate limit (SPEC 10): not only that it came, but what it made
// the server produce. A page of large invoices takes as long to read, render and send as many small requests; counted
// as one, a key well inside its limit could keep the server busy for everyone else. So a request takes one token before
// it runs, and once its response is made, one more for every `bytesPerToken` of body past the first: the bucket may go
// into debt, and the key's next requests are refused (429, with a `Retry-After` that counts the debt) until it has
// refilled.
import { Effect } from "effect"
import type { HttpServerResponse } from "effect/http"
import type * as RateLimiter from "./RateLimiter.js"

/** Bytes of response body one token pays for: an ordinary response (an invoice, a page of a few) costs one. */
export const bytesPerToken = 16 * 1024

/** The body's length, where the response knows it (every JSON, text and PDF answer does). */
const bodyBytes = (response: HttpServerResponse.HttpServerResponse) =>
  response.body._tag === "Empty" ? 0 : (response.body.contentLength ?? 0)

/** Tokens `response` costs beyond the one its request took before running. */
export const extraTokens = (response: HttpServerResponse.HttpServerResponse) =>
  Math.max(0, bodyBytes(response) / bytesPerToken - 1)

/** Spends from `bucket` what `response` cost beyond the token its request took (`extraTokens`). */
export const pay = (
  limiter: RateLimiter.RateLimiter["Service"],
  bucket: string,
  limit: RateLimiter.Limit,
  response: HttpServerResponse.HttpServerResponse
): Effect.Effect<void> => {
  const extra = extraTokens(response)
  return extra > 0 ? limiter.spend(bucket, limit, extra) : Effect.void
}
