// Where the pix provider notifies (`POST /pix-api/webhook/pix`, the API Pix's callback on the URL Fatura registers
// with `PUT /webhook/{chave}`): the pix it received and the returns it settled. The body is not signed, so it is only
// read for the ids it names; each is asked of the provider before anything is paid (`PixSettlements`). Anyone can
// send one, so what one costs is bounded: its lists by the schema (a longer one is a 400 before anything is read or
// asked), its provider calls by the use case's budget, and the provider calls of all notifications together by a
// token bucket every process shares (`RateLimiter`). A 2xx tells the provider the notification was taken; anything
// else makes it try again.
import { InvalidRequest, Unavailable } from "@fatura/api"
import { PixSettlements } from "@fatura/application"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import * as ErrorResponses from "./ErrorResponses.js"
import * as RateLimiter from "./RateLimiter.js"
import { RequestBody } from "./RequestBody.js"
import * as RequestIssues from "./RequestIssues.js"
import type * as RoutePolicy from "./RoutePolicy.js"

/** At most this many pix in a notification: a PSP notifies as pix arrive, and what a longer list holds the reconciliation finds. */
export const maxPix = 100
/** At most this many returns under one pix, and in a whole notification. */
export const maxReturnsPerPix = 100
export const maxReturns = 500

/**
 * The provider calls a second that all notifications together may make, across every process that shares the rate
 * limits' store (`FATURA_PIX_NOTIFICATION_CALLS`), in bursts of ten seconds' worth: what notifications may spend of
 * the PSP's quota, so that the rest is left for creating charges and refunds. Past it, a notification is answered
 * 204 and what it names is left to the reconciliation and the sweep.
 */
export const ProviderCallsPerSecond = Context.Reference<number>("@fatura/http/PixNotificationProviderCalls", {
  defaultValue: () => 5
})

const EndToEndId = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9]{1,32}$/))
const ReturnId = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9]{1,35}$/))

/**
 * Where a notification's lists are longer than they may be, found by counting them before a single entry is decoded:
 * a notification of a hundred thousand returns costs no more than counting its pix. What is not a list here is left
 * for the structure's own schema to name.
 */
const listsTooLong = (body: unknown): Schema.FilterOutput => {
  const pix = typeof body === "object" && body !== null ? (body as { readonly pix?: unknown }).pix : undefined
  if (!Array.isArray(pix)) return true
  if (pix.length > maxPix) return { path: ["pix"], issue: `must hold at most ${maxPix} pix` }
  let returns = 0
  for (const [index, entry] of pix.entries()) {
    const devolucoes =
      typeof entry === "object" && entry !== null ? (entry as { readonly devolucoes?: unknown }).devolucoes : undefined
    if (!Array.isArray(devolucoes)) continue
    if (devolucoes.length > maxReturnsPerPix) {
      return { path: ["pix", index, "devolucoes"], issue: `must hold at most ${maxReturnsPerPix} returns` }
    }
    returns += devolucoes.length
  }
  return (
    returns <= maxReturns || { path: ["pix"], issue: `must name at most ${maxReturns} returns (devolucoes) in all` }
  )
}

const Sizes = Schema.Unknown.check(Schema.makeFilter(listsTooLong))

/** The notification as far as it is read: the ids, nothing of amounts or payers, which are asked of the provider. */
const Notification = Schema.Struct({
  pix: Schema.Array(
    Schema.Struct({
      endToEndId: EndToEndId,
      devolucoes: Schema.optionalKey(Schema.Array(Schema.Struct({ id: ReturnId })))
    })
  )
})

const decodeSizes = Schema.decodeUnknownEffect(Sizes)
const decodeNotification = Schema.decodeUnknownEffect(Notification)

const shape = 'an API Pix notification: { "pix": [ { "endToEndId": …, "devolucoes": [ { "id": … } ] } ] }'

const malformed = (error: Schema.SchemaError) =>
  ErrorResponses.of(RequestIssues.invalidRequest(RequestIssues.issuesOf(error)))

const notified = (allowance: Effect.Effect<boolean>) =>
  Effect.gen(function* () {
    const settlements = yield* PixSettlements
    const body = yield* RequestBody
    if (body._tag === "Empty") {
      const message = `the body must be ${shape}`
      return ErrorResponses.of(new InvalidRequest({ message, issues: [{ path: "", message }] }))
    }
    const sized = yield* Effect.result(decodeSizes(body.value))
    if (sized._tag === "Failure") return malformed(sized.failure)
    const decoded = yield* Effect.result(decodeNotification(body.value))
    if (decoded._tag === "Failure") return malformed(decoded.failure)
    const pix = decoded.success.pix.map((entry) => ({
      endToEndId: entry.endToEndId,
      returnIds: (entry.devolucoes ?? []).map((refund) => refund.id)
    }))
    return yield* settlements.notified(pix, allowance).pipe(
      Effect.as(HttpServerResponse.empty({ status: 204 })),
      Effect.catchTags({
        PixProviderUnavailable: (error) =>
          Effect.as(
            Effect.logWarning("pix notification not confirmed: the provider could not be asked", { error }),
            ErrorResponses.of(new Unavailable({ code: "provider_unavailable", message: "try again later" }))
          ),
        StorageUnavailable: () =>
          Effect.succeed(
            ErrorResponses.of(
              new Unavailable({ code: "unavailable", message: "the service is temporarily unavailable" })
            )
          )
      })
    )
  })

export const path = "/pix-api/webhook/pix"

/** Anyone may notify, and each notification makes Fatura ask the provider about what it names. */
export const route: RoutePolicy.Route = {
  method: "POST",
  path,
  policy: { access: "provider", callsProviders: true, takesPayload: true, page: false }
}

/** The URL to register with the provider: it notifies `<url>/pix`. */
export const webhookUrl = (publicBaseUrl: string) => `${publicBaseUrl.replace(/\/$/, "")}/pix-api/webhook`

/** The bucket of the provider calls all notifications share. */
const providerCallsBucket = "pix-notifications:provider-calls"

export const layer = Layer.unwrap(
  Effect.gen(function* () {
    // Without a limiter provided, this server's own buckets, in memory: the allowance is then per process.
    const limiter = yield* Option.match(yield* Effect.serviceOption(RateLimiter.RateLimiter), {
      onNone: () => RateLimiter.inMemory,
      onSome: Effect.succeed
    })
    const perSecond = yield* ProviderCallsPerSecond
    const limit: RateLimiter.Limit = { burst: perSecond * 10, perSecond }
    const allowance = Effect.map(limiter.take(providerCallsBucket, limit), (decision) => decision.allowed)
    return HttpRouter.add("POST", path, notified(allowance))
  })
)
