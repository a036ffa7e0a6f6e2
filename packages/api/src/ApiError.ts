// The contract's errors (SPEC 3), each a tagged class for programs (a typed client's `Effect.catchTag("NotFound", …)`).
// On the wire an error is `{ code, message, issues? }` and nothing else; `issues` comes with 400 `invalid_request`
// only. What each is as a response — its status, body and headers — is `ApiErrorResponse`'s.
import { Schema } from "effect"

export const ErrorIssue = Schema.Struct({
  path: Schema.String.annotate({
    description: "Where the problem is: a dotted path into the body, or the name of a query parameter or header.",
    examples: ["payer.cpf_cnpj"]
  }),
  message: Schema.String.annotate({ examples: ["invalid check digits"] })
}).annotate({ identifier: "ErrorIssue" })
export type ErrorIssue = typeof ErrorIssue.Type

/** One entry per problem, and at least one: a problem of the request as a whole is at the root path, `""`. */
const ErrorIssues = Schema.Array(ErrorIssue).pipe(
  Schema.check(Schema.isMinLength(1)),
  Schema.refine((issues): issues is readonly [ErrorIssue, ...Array<ErrorIssue>] => issues.length > 0)
)

export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  code: Schema.tag("invalid_request"),
  message: Schema.String,
  issues: ErrorIssues
}) {}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  code: Schema.tag("unauthorized"),
  message: Schema.String
}) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  code: Schema.tag("forbidden"),
  message: Schema.String
}) {}

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  code: Schema.tag("not_found"),
  message: Schema.String
}) {}

export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  code: Schema.tag("method_not_allowed"),
  message: Schema.String,
  /** The methods the path is served with: the response's `Allow`. */
  allow: Schema.Array(Schema.String)
}) {}

export class RequestTimeout extends Schema.TaggedError<RequestTimeout>()("RequestTimeout", {
  code: Schema.tag("request_timeout"),
  message: Schema.String
}) {}

export class InvalidState extends Schema.TaggedError<InvalidState>()("InvalidState", {
  code: Schema.tag("invalid_state"),
  message: Schema.String
}) {}

export const IdempotencyConflictCode = Schema.Literals(["idempotency_conflict", "idempotency_in_progress"])

export class IdempotencyConflict extends Schema.TaggedError<IdempotencyConflict>()("IdempotencyConflict", {
  code: IdempotencyConflictCode,
  message: Schema.String
}) {}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  code: Schema.tag("payload_too_large"),
  message: Schema.String
}) {}

export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  code: Schema.tag("unsupported_media_type"),
  message: Schema.String
}) {}

export const UnprocessableCode = Schema.Literals([
  "unprocessable",
  "total_mismatch",
  "amount_out_of_range",
  "refund_exceeds_remaining",
  "insufficient_balance",
  "installment_too_small",
  "postback_url_not_allowed",
  "bank_account_missing"
])

export class Unprocessable extends Schema.TaggedError<Unprocessable>()("Unprocessable", {
  code: UnprocessableCode,
  message: Schema.String
}) {}

export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  code: Schema.tag("rate_limited"),
  message: Schema.String,
  /** Seconds to wait before trying again: the response's `Retry-After`. */
  retryAfter: Schema.Int
}) {}

export class HeadersTooLarge extends Schema.TaggedError<HeadersTooLarge>()("HeadersTooLarge", {
  code: Schema.tag("invalid_request"),
  message: Schema.String
}) {}

export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", {
  code: Schema.tag("internal_error"),
  message: Schema.String
}) {}

export const UnavailableCode = Schema.Literals([
  "unavailable",
  "acquirer_unavailable",
  "provider_unavailable",
  "payout_unavailable"
])

export class Unavailable extends Schema.TaggedError<Unavailable>()("Unavailable", {
  code: UnavailableCode,
  message: Schema.String
}) {}

/** Every error of the contract. */
export type ApiError =
  | InvalidRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | MethodNotAllowed
  | RequestTimeout
  | InvalidState
  | IdempotencyConflict
  | PayloadTooLarge
  | UnsupportedMediaType
  | Unprocessable
  | RateLimited
  | HeadersTooLarge
  | InternalError
  | Unavailable
