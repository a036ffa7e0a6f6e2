// The request body (SPEC 1, 3, 10). Its declaration is judged on the headers, before anything else of the route: a
// POST's body is declared as JSON in UTF-8 (else 415), of at most 1 MiB (else 413). The body itself is read only for a
// request the edge let through (authenticated and within its rate limit) on a route that takes one: decoded strictly,
// parsed, and checked for nesting, string sizes and well-formed text; a body that fails a check is answered 400 there
// and then. What it holds is handed on as `RequestBody`, for the idempotency fingerprint; the endpoint's payload is
// the framework's to decode from the same bytes, read once. A route that takes no payload never reads it.
import { type ErrorIssue, type InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from "@fatura/api"
import { Context, Effect } from "effect"
import { HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as AccessLog from "./AccessLog.js"
import * as ErrorResponses from "./ErrorResponses.js"
import * as JsonSyntax from "./JsonSyntax.js"
import * as RequestIssues from "./RequestIssues.js"
import * as RequestLimits from "./RequestLimits.js"

export type Body =
  /** No body; also what a request other than a POST has (a body sent with a GET is ignored, SPEC 4.2). */
  { readonly _tag: "Empty" } | { readonly _tag: "Json"; readonly value: unknown }

/** What a body read comes to: what it holds, or why it is refused. */
type Parsed = Body | { readonly _tag: "Refused"; readonly error: InvalidRequest }

const empty: Body = { _tag: "Empty" }

export const RequestBody = Context.Reference<Body>("@fatura/http/RequestBody", { defaultValue: () => empty })

const strictUtf8 = new TextDecoder("utf-8", { fatal: true })
const lenientUtf8 = new TextDecoder("utf-8")

const refused = (issue: ErrorIssue): Parsed => ({ _tag: "Refused", error: RequestIssues.invalidRequest([issue]) })

/**
 * The offset of the first byte that begins no well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF), or of a sequence cut short by the end.
 */
const invalidUtf8Offset = (bytes: Uint8Array): number => {
  let at = 0
  while (at < bytes.length) {
    const lead = bytes[at]!
    if (lead < 0x80) {
      at += 1
      continue
    }
    // The length of the sequence `lead` begins, and the range its second byte must be in.
    const [length, low, high] =
      lead >= 0xc2 && lead <= 0xdf
        ? [2, 0x80, 0xbf]
        : lead === 0xe0
          ? [3, 0xa0, 0xbf]
          : lead === 0xed
            ? [3, 0x80, 0x9f]
            : lead >= 0xe1 && lead <= 0xef
              ? [3, 0x80, 0xbf]
              : lead === 0xf0
                ? [4, 0x90, 0xbf]
                : lead === 0xf4
                  ? [4, 0x80, 0x8f]
                  : lead >= 0xf1 && lead <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : [0, 0, 0]
    const second = bytes[at + 1]
    if (length === 0 || second === undefined || second < low || second > high) return at
    for (let next = at + 2; next < at + length; next++) {
      const continuation = bytes[next]
      if (continuation === undefined || continuation < 0x80 || continuation > 0xbf) return at
    }
    at += length
  }
  return at
}

/**
 * Where the bytes that are not UTF-8 landed: the string the lenient decoder had to put U+FFFD into; or, in a body
 * that is no JSON either, the offset of the first of them.
 */
const invalidUtf8 = (bytes: Uint8Array): Parsed => {
  const message = "is not valid UTF-8"
  try {
    const issue = RequestLimits.checkJson(JSON.parse(lenientUtf8.decode(bytes)), (text) =>
      text.includes("\uFFFD") ? message : undefined
    )
    if (issue !== undefined) return refused(issue)
  } catch {
    // Not JSON either: nothing to name but the body.
  }
  return refused({ path: "", message: `${message} at byte ${invalidUtf8Offset(bytes)}` })
}

/** What is wrong with a body `JSON.parse` refused, and where, without quoting it (the engine's messages do). */
const invalidJson = (text: string): Parsed => {
  const syntax = JsonSyntax.problemOf(text)
  return refused({
    path: "",
    message:
      syntax === undefined
        ? "is not valid JSON"
        : `is not valid JSON: ${syntax.problem} at position ${syntax.position} (line ${syntax.line}, column ${syntax.column})`
  })
}

const parse = (bytes: Uint8Array): Parsed => {
  if (bytes.byteLength === 0) return empty
  let text: string
  try {
    text = strictUtf8.decode(bytes)
  } catch {
    return invalidUtf8(bytes)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return invalidJson(text)
  }
  const issue = RequestLimits.checkJson(value)
  return issue === undefined ? { _tag: "Json", value } : refused(issue)
}

interface MediaType {
  readonly type: string
  readonly charset: string | undefined
}

const mediaTypeOf = (header: string | undefined): MediaType | undefined => {
  if (header === undefined) return undefined
  const [type = "", ...parameters] = header.split(";")
  const charset = parameters
    .map((parameter) => parameter.trim().split("="))
    .find(([name]) => name?.trim().toLowerCase() === "charset")?.[1]
  return {
    type: type.trim().toLowerCase(),
    charset: charset
      ?.trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase()
  }
}

const hasBody = (request: HttpServerRequest.HttpServerRequest) => {
  const length = request.headers["content-length"]
  return (length !== undefined && length !== "0") || request.headers["transfer-encoding"] !== undefined
}

const unsupportedMediaType = (message: string) => ErrorResponses.of(new UnsupportedMediaType({ message }))

// The rest of an oversized body is not worth reading: the connection closes after the answer.
const payloadTooLarge = () =>
  HttpServerResponse.setHeader(
    ErrorResponses.of(new PayloadTooLarge({ message: `the request body is over ${RequestLimits.maxBodyBytes} bytes` })),
    "connection",
    "close"
  )

/** What is wrong with the body's declaration, answered before a byte of it is read. */
const refusedDeclaration = (request: HttpServerRequest.HttpServerRequest) => {
  const declared = mediaTypeOf(request.headers["content-type"])
  if (declared === undefined ? hasBody(request) : declared.type !== "application/json") {
    return unsupportedMediaType("send the body as Content-Type: application/json")
  }
  if (declared?.charset !== undefined && declared.charset !== "utf-8" && declared.charset !== "utf8") {
    return unsupportedMediaType("send the body in UTF-8 (charset=utf-8), or without a charset")
  }
  if (Number(request.headers["content-length"] ?? 0) > RequestLimits.maxBodyBytes) return payloadTooLarge()
  return undefined
}

/** Judges a POST's declared body (type, charset, announced size) on its headers alone: nothing of it is read. */
export const checkDeclaration = <E, R>(
  next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (request.method !== "POST") return next
    const refusal = refusedDeclaration(request)
    return refusal === undefined ? next : Effect.succeed(refusal)
  })

/**
 * Reads a POST's body (the rest have none that matters) and hands on what it holds as {@link RequestBody}, or answers
 * 400 for a body that is no JSON or breaks a limit. Its declaration was judged by {@link checkDeclaration}; a chunked
 * body is still cut off past 1 MiB.
 */
export const read = <E, R>(
  next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (request.method !== "POST" || !hasBody(request)) return next
    return request.arrayBuffer.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, RequestLimits.maxBodySize),
      Effect.matchEffect({
        onFailure: (error) =>
          Effect.succeed(
            error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
              ? payloadTooLarge()
              : ErrorResponses.of(RequestIssues.invalidRequest([{ path: "", message: "could not be read to its end" }]))
          ),
        onSuccess: (buffer) =>
          Effect.flatMap(AccessLog.ParsedBody, (parsedBody) => {
            parsedBody.bytes = buffer.byteLength
            const parsed = parse(new Uint8Array(buffer))
            return parsed._tag === "Refused"
              ? Effect.succeed(ErrorResponses.of(parsed.error))
              : Effect.provideService(next, RequestBody, parsed)
          })
      })
    )
  })
