// The contract's error responses (SPEC 3): beside each error class (`ApiError`), its response — the status, the
// body, and the headers it carries. A response decodes into its class by `code` (the tag is the class's, never sent)
// and encodes from it.
import { Schema, SchemaTransformation } from "effect"
import { HttpApiSchema } from "effect/http-api"
import {
  type ApiError,
  type ErrorIssue,
  Forbidden,
  HeadersTooLarge,
  IdempotencyConflict,
  IdempotencyConflictCode,
  InternalError,
  InvalidRequest,
  InvalidState,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  RequestTimeout,
  Unauthorized,
  Unavailable,
  UnavailableCode,
  Unprocessable,
  UnprocessableCode,
  UnsupportedMediaType
} from "./ApiError.js"
import { IntegerText } from "./IntegerText.js"

const Message = Schema.String.annotate({ description: "A sentence for people; never parsed." })

const body = <const Code extends Schema.Top, const Extra extends Schema.Struct.Fields = {}>(
  identifier: string,
  description: string,
  code: Code,
  extra?: Extra
) => Schema.Struct({ code, message: Message, ...(extra as Extra) }).annotate({ identifier, description })

/** The response's description in the document: its body's. */
const describedAs =
  (body: Schema.Top) =>
  <S extends Schema.Top>(response: S): S["Rebuild"] => {
    const description = body.ast.annotations?.description
    return response.annotate({ description: typeof description === "string" ? description : undefined })
  }

/** The response of an error without headers: its body is the class's fields but the tag. */
const plain = <Error extends Schema.Top & (new (fields: Body["Type"]) => Error["Type"]), Body extends Schema.Top>(
  error: Error,
  status: number,
  wire: Body,
  toBody: (error: Error["Type"]) => Body["Type"]
) =>
  wire.pipe(
    Schema.decodeTo(
      Schema.toType(error),
      SchemaTransformation.transform({ decode: (fields: Body["Type"]) => new error(fields), encode: toBody })
    ),
    HttpApiSchema.status(status),
    describedAs(wire)
  )

const codeAndMessage = <Code extends string>(error: { readonly code: Code; readonly message: string }) => ({
  code: error.code,
  message: error.message
})

export const InvalidRequestResponse = plain(
  InvalidRequest,
  400,
  body(
    "InvalidRequest",
    "The request is malformed: its JSON, a field's type, format or range, an unknown value, a missing field, query " +
      "parameter or header. `issues` has one entry per problem.",
    Schema.Literal("invalid_request"),
    { issues: InvalidRequest.fields.issues }
  ),
  (error) => ({ code: error.code, message: error.message, issues: error.issues })
)

const unauthorizedBody = body(
  "Unauthorized",
  "A missing, malformed, unknown or revoked key, or a key of the wrong kind for the endpoint.",
  Schema.Literal("unauthorized")
)

export const UnauthorizedResponse = Unauthorized.pipe(
  HttpApiSchema.encodeToWithHeaders(
    {
      body: unauthorizedBody.pipe(HttpApiSchema.status(401)),
      headers: {
        "www-authenticate": Schema.Literal("Bearer").annotate({ description: "The scheme that is accepted." })
      }
    },
    {
      decode: ({ body }) => new Unauthorized(body),
      encode: (error) => ({ body: codeAndMessage(error), headers: { "www-authenticate": "Bearer" as const } })
    }
  ),
  describedAs(unauthorizedBody)
)

export const ForbiddenResponse = plain(
  Forbidden,
  403,
  body(
    "Forbidden",
    "The company is blocked for this, or a sandbox helper was called with a live key.",
    Schema.Literal("forbidden")
  ),
  codeAndMessage
)

export const NotFoundResponse = plain(
  NotFound,
  404,
  body(
    "NotFound",
    "No such object for the caller: an unknown id, another company's object, a wrong or missing checkout token.",
    Schema.Literal("not_found")
  ),
  codeAndMessage
)

const methodNotAllowedBody = body(
  "MethodNotAllowed",
  "The path exists, but not with this method; `Allow` lists the methods it is served with.",
  Schema.Literal("method_not_allowed")
)

export const MethodNotAllowedResponse = MethodNotAllowed.pipe(
  HttpApiSchema.encodeToWithHeaders(
    {
      body: methodNotAllowedBody.pipe(HttpApiSchema.status(405)),
      headers: {
        allow: Schema.String.annotate({
          description: "The methods the path is served with, comma-separated.",
          examples: ["GET, HEAD"]
        })
      }
    },
    {
      decode: ({ body, headers }) =>
        new MethodNotAllowed({ ...body, allow: headers.allow.split(",").map((method) => method.trim()) }),
      encode: (error) => ({ body: codeAndMessage(error), headers: { allow: error.allow.join(", ") } })
    }
  ),
  describedAs(methodNotAllowedBody)
)

export const RequestTimeoutResponse = plain(
  RequestTimeout,
  408,
  body(
    "RequestTimeout",
    "The request's headers did not arrive within 10 s, or the whole request within 30 s.",
    Schema.Literal("request_timeout")
  ),
  codeAndMessage
)

export const InvalidStateResponse = plain(
  InvalidState,
  409,
  body(
    "InvalidState",
    "The invoice's status does not allow the operation (a refund of a pending invoice, a payment of a paid one).",
    Schema.Literal("invalid_state")
  ),
  codeAndMessage
)

export const IdempotencyConflictResponse = plain(
  IdempotencyConflict,
  409,
  body(
    "IdempotencyConflict",
    "The `Idempotency-Key` was used with another request (`idempotency_conflict`), or its first request is still " +
      "running (`idempotency_in_progress`).",
    IdempotencyConflictCode
  ),
  codeAndMessage
)

export const PayloadTooLargeResponse = plain(
  PayloadTooLarge,
  413,
  body("PayloadTooLarge", "The body is over 1 MiB.", Schema.Literal("payload_too_large")),
  codeAndMessage
)

export const UnsupportedMediaTypeResponse = plain(
  UnsupportedMediaType,
  415,
  body(
    "UnsupportedMediaType",
    "A body that is not declared as `application/json` in UTF-8.",
    Schema.Literal("unsupported_media_type")
  ),
  codeAndMessage
)

export const UnprocessableResponse = plain(
  Unprocessable,
  422,
  body("Unprocessable", "A well-formed request that breaks a business rule; `code` names the rule.", UnprocessableCode),
  codeAndMessage
)

const rateLimitedBody = body(
  "RateLimited",
  "Too many requests from this key, or from this address on the payer's side.",
  Schema.Literal("rate_limited")
)

export const RateLimitedResponse = RateLimited.pipe(
  HttpApiSchema.encodeToWithHeaders(
    {
      body: rateLimitedBody.pipe(HttpApiSchema.status(429)),
      headers: {
        "retry-after": IntegerText({ minimum: 1, description: "Seconds to wait before trying again." })
      }
    },
    {
      decode: ({ body, headers }) => new RateLimited({ ...body, retryAfter: headers["retry-after"] }),
      encode: (error) => ({ body: codeAndMessage(error), headers: { "retry-after": error.retryAfter } })
    }
  ),
  describedAs(rateLimitedBody)
)

export const HeadersTooLargeResponse = plain(
  HeadersTooLarge,
  431,
  body("HeadersTooLarge", "The request's headers are too large.", Schema.Literal("invalid_request")),
  codeAndMessage
)

export const InternalErrorResponse = plain(
  InternalError,
  500,
  body("InternalError", "A bug, logged with the request id that the message names.", Schema.Literal("internal_error")),
  codeAndMessage
)

export const UnavailableResponse = plain(
  Unavailable,
  503,
  body(
    "Unavailable",
    "The database cannot be reached or the service is stopping (`unavailable`), or no acquirer takes live cards " +
      "(`acquirer_unavailable`), or the pix provider cannot be reached or failed (`provider_unavailable`), or no " +
      "payout rail pays withdrawals of the key's mode (`payout_unavailable`). Trying " +
      "again later (with the same Idempotency-Key) may succeed.",
    UnavailableCode
  ),
  codeAndMessage
)

/** The response of each error, by its tag. */
export const responses = {
  InvalidRequest: InvalidRequestResponse,
  Unauthorized: UnauthorizedResponse,
  Forbidden: ForbiddenResponse,
  NotFound: NotFoundResponse,
  MethodNotAllowed: MethodNotAllowedResponse,
  RequestTimeout: RequestTimeoutResponse,
  InvalidState: InvalidStateResponse,
  IdempotencyConflict: IdempotencyConflictResponse,
  PayloadTooLarge: PayloadTooLargeResponse,
  UnsupportedMediaType: UnsupportedMediaTypeResponse,
  Unprocessable: UnprocessableResponse,
  RateLimited: RateLimitedResponse,
  HeadersTooLarge: HeadersTooLargeResponse,
  InternalError: InternalErrorResponse,
  Unavailable: UnavailableResponse
} as const

/** What an error is on the wire: its status, its JSON body and the headers it carries. */
export interface WireError {
  readonly status: number
  readonly body: { readonly code: string; readonly message: string; readonly issues?: ReadonlyArray<ErrorIssue> }
  readonly headers: Readonly<Record<string, string>>
}

const statuses: Record<ApiError["_tag"], number> = {
  InvalidRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  RequestTimeout: 408,
  InvalidState: 409,
  IdempotencyConflict: 409,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  Unprocessable: 422,
  RateLimited: 429,
  HeadersTooLarge: 431,
  InternalError: 500,
  Unavailable: 503
}

/** An error as the contract sends it, encoded by its response: for whoever writes responses by hand. */
export const toWire = (error: ApiError): WireError => {
  const encoded = Schema.encodeSync(responses[error._tag] as unknown as Schema.Codec<ApiError, unknown>)(error)
  const status = statuses[error._tag]
  return error._tag === "Unauthorized" || error._tag === "RateLimited" || error._tag === "MethodNotAllowed"
    ? { status, ...(encoded as Omit<WireError, "status">) }
    : { status, body: encoded as WireError["body"], headers: {} }
}
