// The request target, judged once. Before routing: every route has one spelling, the one the contract writes — a
// path spelled any other way (another case, a doubled or trailing slash, a dot segment, percent-encoding, a `;`
// parameter) answers 404 like an unknown path, so nothing keyed by the route (idempotency, rate limits, metrics) can
// be reached by a second spelling — and a request names its host once, as a host (RFC 9112 §3.2: on HTTP/1.1 it must
// name one). Once a route is matched: its query must be well-formed percent-encoded UTF-8 holding well-formed text
// (400 naming the parameter).
import { Effect } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import * as ErrorResponses from "./ErrorResponses.js"
import * as RequestIssues from "./RequestIssues.js"
import * as WellFormedText from "./WellFormedText.js"

/** Segments of RFC 3986 unreserved characters, none of them `.` or `..`; or the root alone. */
const canonicalPath = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9._~-]+)+$|^\/$/

/** How the router matches: exactly as written, which is what the canonical path check leaves it to do. */
export const routerConfig = { caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false }

const decodeQueryPart = (part: string) => decodeURIComponent(part.replaceAll("+", " "))

/** The first parameter of a query string that does not decode to well-formed text, with what is wrong with it. */
const queryProblem = (query: string): { readonly name: string; readonly message: string } | undefined => {
  for (const pair of query.split("&")) {
    const separator = pair.indexOf("=")
    const rawName = separator === -1 ? pair : pair.slice(0, separator)
    let name: string
    let value: string
    try {
      name = decodeQueryPart(rawName)
    } catch {
      return { name: "query", message: "a parameter name is not percent-encoded UTF-8" }
    }
    const nameProblem = WellFormedText.problemOf(name)
    if (nameProblem !== undefined) return { name: "query", message: `a parameter name ${nameProblem}` }
    try {
      value = separator === -1 ? "" : decodeQueryPart(pair.slice(separator + 1))
    } catch {
      return { name, message: "is not percent-encoded UTF-8" }
    }
    const valueProblem = WellFormedText.problemOf(value)
    if (valueProblem !== undefined) return { name, message: valueProblem }
  }
  return undefined
}

/**
 * A host as RFC 9110 §7.2 has it, `uri-host [ ":" port ]`: an IP literal in brackets, or an IPv4 address or registered
 * name (RFC 3986), which an `http` URI may not leave empty.
 */
const validHost = /^(?:\[[0-9A-Za-z._~!$&'()*+,;=:-]+\]|(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+)(?::[0-9]*)?$/

/** The Node request under the server's: its raw header lines keep every `Host`, where `headers` keeps the first. */
interface NodeRequest {
  readonly httpVersion?: string
  readonly rawHeaders?: ReadonlyArray<string>
}

/** What is wrong with the request's `Host` (RFC 9112 §3.2): missing on HTTP/1.1, given twice, or no host. */
const hostProblem = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const source = request.source as NodeRequest
  const hosts =
    source.rawHeaders === undefined
      ? [request.headers.host].filter((host) => host !== undefined)
      : source.rawHeaders.filter((_, index, raw) => index % 2 === 1 && raw[index - 1]!.toLowerCase() === "host")
  const [host, ...others] = hosts
  if (host === undefined) return source.httpVersion === "1.1" ? "is required" : undefined
  if (others.length > 0) return "must be sent once"
  return validHost.test(host) ? undefined : "must be a host name or address, with an optional port"
}

const invalidRequest = (path: string, message: string) =>
  ErrorResponses.of(RequestIssues.invalidRequest([{ path, message }]))

/** Before routing: the host is named once, as a host, and the path is spelled as a route writes it. */
export const check = <E, R>(
  next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const problem = hostProblem(request)
    if (problem !== undefined) return Effect.succeed(invalidRequest("Host", problem))
    const queryStart = request.url.indexOf("?")
    const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart)
    return canonicalPath.test(path) ? next : Effect.succeed(ErrorResponses.noSuchRoute())
  })

/** Once a route is matched: its query holds well-formed text. */
export const checkQuery = <E, R>(
  next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const queryStart = request.url.indexOf("?")
    const problem = queryStart === -1 ? undefined : queryProblem(request.url.slice(queryStart + 1))
    return problem === undefined ? next : Effect.succeed(invalidRequest(problem.name, problem.message))
  })
