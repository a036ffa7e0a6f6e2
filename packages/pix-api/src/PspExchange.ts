// One exchange with the PSP: a request sent and its answer read within the time allowed, and every way of not getting
// a usable answer told as PixProviderUnavailable, in words that name the call and what happened — never a header,
// so never a credential or a token.
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

/** An answer the call cannot use, told with its status and what the PSP said of it (problem details or OAuth2's error). */
export const refused = (answer: Answer, what: string): PixProviderUnavailable => {
  const oauth = Option.flatMap(parseJson(answer.text), Schema.decodeUnknownOption(OAuthError))
  const said = Option.match(problemOf(answer), {
    onSome: describeProblem,
    onNone: () =>
      Option.match(oauth, {
        onSome: (error) => [error.error, error.error_description].filter((part) => part !== undefined).join(": "),
        onNone: () => ""
      })
  })
  return unavailable(`the PSP answered ${what} with ${answer.status}${said === "" ? "" : ` ${said}`}`)
}

export const isSuccess = (answer: Answer) => answer.status >= 200 && answer.status < 300

/** A 404 with problem details: what the API Pix answers for a charge, pix or return it does not have. */
export const isNotFound = (answer: Answer) => answer.status === 404 && Option.isSome(problemOf(answer))
