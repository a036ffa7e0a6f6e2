// The contract's error responses (SPEC 3): `{ code, message, issues? }` with the status each code answers with.
import { Schema } from "effect"

export const ErrorIssue = Schema.Struct({ path: Schema.String, message: Schema.String })
export type ErrorIssue = typeof ErrorIssue.Type

export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()(
  "InvalidRequest",
  { code: Schema.tag("invalid_request"), message: Schema.String, issues: Schema.Array(ErrorIssue) },
  { httpApiStatus: 400 }
) {}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  { code: Schema.tag("unauthorized"), message: Schema.String },
  { httpApiStatus: 401 }
) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  { code: Schema.tag("forbidden"), message: Schema.String },
  { httpApiStatus: 403 }
) {}

export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  { code: Schema.tag("not_found"), message: Schema.String },
  { httpApiStatus: 404 }
) {}

export class InvalidState extends Schema.TaggedError<InvalidState>()(
  "InvalidState",
  { code: Schema.tag("invalid_state"), message: Schema.String },
  { httpApiStatus: 409 }
) {}

export const UnprocessableCode = Schema.Literals([
  "unprocessable",
  "total_mismatch",
  "amount_out_of_range",
  "refund_exceeds_remaining",
  "insufficient_balance",
  "installment_too_small",
  "postback_url_not_allowed"
])

export class Unprocessable extends Schema.TaggedError<Unprocessable>()(
  "Unprocessable",
  { code: UnprocessableCode, message: Schema.String },
  { httpApiStatus: 422 }
) {}

export class InternalError extends Schema.TaggedError<InternalError>()(
  "InternalError",
  { code: Schema.tag("internal_error"), message: Schema.String },
  { httpApiStatus: 500 }
) {}

export class Unavailable extends Schema.TaggedError<Unavailable>()(
  "Unavailable",
  { code: Schema.Literals(["unavailable", "acquirer_unavailable"]), message: Schema.String },
  { httpApiStatus: 503 }
) {}
