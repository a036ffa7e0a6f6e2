// One exchange with the PSP: a request sent and its answer read within the time allowed, and what the answer means
// (`classify`): a success, a thing the PSP does not have, a definite refusal, or no usable answer — the last told as
// PixProviderUnavailable, in words that name the call and what happened, never a header, so never a credential or a
// token.
import { PixProviderUnavailable } from "@fatura/application"
import { Duration, Effect, Option, Predicate, Schema } from "effect"
import { HttpClient, type HttpClientError, type HttpClientRequest } from "effect/http"
import { describeProblem, OAuthError, Problem } from "./ApiPixAnswers.js"

/** An answer read whole. */
export interface Answer {
  readonly status: number
  readonly text: string
}

export const unavailable = (message: string) => new PixProviderUnavailable({ message })

/** What a failed connection, TLS handshake or read says, with the system's code when it has one. */
const describeCause = (cause: unknown): string => {
  if (cause instanceof Error) {
    const code = Predicate.hasProperty(cause, "code") && typeof cause.code === "string" ? cause.code : undefined
    return code !== undefined && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message
  }
  return String(cause)
}

const describeClientError = (error: HttpClientError.HttpClientError): string => {
  const reason = error.reason
  if (reason.cause !== undefined) return describeCause(reason.cause)
  return reason.description ?? reason._tag
}

/**
 * Sends `request` and reads its answer, all within `timeout`. `what` names the call in messages (method and path).
 * Trace headers are not sent: the PSP is outside the platform.
 */
export const send = (
  client: HttpClient.HttpClient,
  timeout: Duration.Duration,
  request: HttpClientRequest.HttpClientRequest,
  what: string
): Effect.Effect<Answer, PixProviderUnavailable> =>
  client.execute(request).pipe(
    Effect.flatMap((response) => Effect.map(response.text, (text) => ({ status: response.status, text }))),
    Effect.catchTag("HttpClientError", (error) =>
      Effect.fail(unavailable(`could not reach the PSP for ${what}: ${describeClientError(error)}`))
    ),
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () => Effect.fail(unavailable(`the PSP did not answer ${what} within ${Duration.toMillis(timeout)} ms`))
    }),
    Effect.provideService(HttpClient.TracerPropagationEnabled, false)
  )

const parseJson = (text: string): Option.Option<unknown> => {
  try {
    return Option.some(JSON.parse(text))
  } catch {
    return Option.none()
  }
}

/** The body of `answer` decoded by `schema`, or why it cannot be: the PSP's answer is then unusable. */
export const decode = <S extends Schema.ConstraintDecoder<unknown>>(
  schema: S,
  answer: Answer,
  what: string
): Effect.Effect<S["Type"], PixProviderUnavailable> =>
  Option.match(parseJson(answer.text), {
    onNone: () =>
      Effect.fail(unavailable(`the PSP's answer to ${what} (${answer.status}) is not JSON: ${excerpt(answer.text)}`)),
    onSome: (json) =>
      Schema.decodeUnknownEffect(schema)(json).pipe(
        Effect.mapError((error) =>
          unavailable(
            `the PSP's answer to ${what} (${answer.status}) is not what the API Pix says: ${excerpt(error.message)}`
          )
        )
      )
  })

const excerpt = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text) || "(empty)"

/** The problem details an error answer carries, when it carries them. */
export const problemOf = (answer: Answer): Option.Option<Problem> =>
  Option.flatMap(parseJson(answer.text), Schema.decodeUnknownOption(Problem)).pipe(
    Option.filter(
      (problem) => problem.title !== undefined || problem.detail !== undefined || problem.type !== undefined
    )
  )

/** What the PSP said of an error answer, in one line: its problem details, or OAuth2's error; empty when neither. */
export const describe = (answer: Answer): string =>
  Option.match(problemOf(answer), {
    onSome: describeProblem,
    onNone: () =>
      Option.match(Option.flatMap(parseJson(answer.text), Schema.decodeUnknownOption(OAuthError)), {
        onSome: (error) => [error.error, error.error_description].filter((part) => part !== undefined).join(": "),
        onNone: () => ""
      })
  })

/** An answer the call cannot use, told with its status and what the PSP said of it. */
export const unusable = (answer: Answer, what: string): PixProviderUnavailable => {
  const said = describe(answer)
  return unavailable(`the PSP answered ${what} with ${answer.status}${said === "" ? "" : ` ${said}`}`)
}

/**
 * What an answer of the API Pix means, whatever the call:
 *
 * - `Success`: a 2xx, whose body the call then reads.
 * - `NotFound`: a 404 with problem details, the API Pix's answer for a charge, pix or return it does not have.
 * - `Refused`: any other 4xx with problem details — 400, 403, 409, 422… — except 401, 408 and 429: the PSP took the
 *   request and said no, and the same request would get the same answer. `reason` is what its problem details say.
 * - `Unavailable`: everything else, which asking again later may mend — a 5xx, a 429 (too many requests), a 408, a
 *   401 (the adapter has already renewed its token once), a 3xx, and an error without problem details (a proxy's or
 *   a load balancer's page is not the PSP answering about the request).
 *
 * Not reaching the PSP at all (refused connection, TLS, timeout) is `PixProviderUnavailable` before any answer.
 */
export type Verdict =
  | { readonly _tag: "Success"; readonly answer: Answer }
  | { readonly _tag: "NotFound"; readonly reason: string }
  | { readonly _tag: "Refused"; readonly status: number; readonly reason: string }
  | { readonly _tag: "Unavailable"; readonly error: PixProviderUnavailable }

/** Statuses that say "not now" rather than "no": the request may succeed when asked again. */
const askAgain = new Set([401, 408, 429])

export const classify = (answer: Answer, what: string): Verdict => {
  const { status } = answer
  if (status >= 200 && status < 300) return { _tag: "Success", answer }
  const problem = problemOf(answer)
  if (status >= 400 && status < 500 && !askAgain.has(status) && Option.isSome(problem)) {
    const reason = describeProblem(problem.value) || problem.value.type || `${status}`
    return status === 404 ? { _tag: "NotFound", reason } : { _tag: "Refused", status, reason }
  }
  return { _tag: "Unavailable", error: unusable(answer, what) }
}
