// The edge's second half, run once the router has matched a route, around everything the route does: it records the
// route for the access log, checks the query and the body's declaration (`RequestTarget`, `RequestBody`), and then,
// on the headers alone, decides who the request acts as from the policy declared with the route (`RoutePolicy`) — a
// secret key, a public token, an invoice's checkout token, or nobody — and holds it to its rate limit. Only a request let through has its body
// read (`RequestBody.read`), once; then a POST with an `Idempotency-Key` runs once for that principal on that route.
// A request refused on its headers is answered without a byte of its body read: the Node server then discards what
// is left of it, up to a bound, or closes the connection.
import { FaturaApi, NotFound, PublicTokenAuthorization, RateLimited, SecretKeyAuthorization } from "@fatura/api"
import { Authentication, Invoices, Secrets } from "@fatura/application"
import { Effect, Option, Redacted, Result } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder } from "effect/http-api"
import * as AccessLog from "./AccessLog.js"
import * as CardVelocity from "./CardVelocity.js"
import * as ErrorEnvelope from "./ErrorEnvelope.js"
import * as ErrorResponses from "./ErrorResponses.js"
import { toResponse } from "./FailureResponses.js"
import * as Idempotency from "./Idempotency.js"
import * as RateLimiter from "./RateLimiter.js"
import * as RequestBody from "./RequestBody.js"
import * as RequestLimits from "./RequestLimits.js"
import * as RequestPrincipal from "./RequestPrincipal.js"
import * as RequestTarget from "./RequestTarget.js"
import * as ResponseCost from "./ResponseCost.js"
import * as RoutePolicy from "./RoutePolicy.js"

/** Each route's policy, by `METHOD path` as the router knows it: the contract's by its endpoints, then the others. */
const policies = (
  contract: RoutePolicy.OfContract,
  others: ReadonlyArray<RoutePolicy.Route>
): ReadonlyMap<string, RoutePolicy.RoutePolicy> => {
  const byName: Readonly<Record<string, Readonly<Record<string, RoutePolicy.Declared>>>> = contract
  const byRoute = new Map<string, RoutePolicy.RoutePolicy>()
  HttpApi.reflect(FaturaApi, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint }) => {
      const declared = byName[group.identifier]?.[endpoint.identifier]
      if (declared === undefined) throw new Error(`no policy for ${group.identifier}.${endpoint.identifier}`)
      byRoute.set(`${endpoint.method} ${endpoint.path}`, {
        ...declared,
        takesPayload: endpoint.payload.size > 0,
        page: false
      })
    }
  })
  for (const route of others) byRoute.set(`${route.method} ${route.path}`, route.policy)
  return byRoute
}

/**
 * The token each credential the contract declares is read from, as the framework reads it for the contract's own
 * security middlewares (`Authorization: Bearer …`, the scheme in any case): empty when there is none.
 */
const secretKeyToken = Effect.map(
  HttpApiBuilder.securityDecode(SecretKeyAuthorization.security.secretKey),
  Redacted.value
)
const publicToken = Effect.map(
  HttpApiBuilder.securityDecode(PublicTokenAuthorization.security.publicToken),
  Redacted.value
)

/** The client's address, one spelling per address (an IPv4 client seen through an IPv6 socket is the IPv4 one). */
const clientAddress = (request: HttpServerRequest.HttpServerRequest) => {
  const address = Option.getOrElse(request.remoteAddress, () => "unknown")
  return address.startsWith("::ffff:") ? address.slice(7) : address
}

const tooMany = (message: string, retryAfterSeconds: number) =>
  ErrorResponses.of(new RateLimited({ message, retryAfter: retryAfterSeconds }))

/** What is spent once a request's response is made, from what the response was: nothing for most. */
type Afterwards = (response: HttpServerResponse.HttpServerResponse) => Effect.Effect<void>

/**
 * What a request may do, decided on its headers: act as `principal`, its `Idempotency-Key` held for `owner` (on routes
 * with no owner it holds none), and pay `afterwards` for what its response cost — or the answer that refuses it.
 */
type Admission =
  | { readonly _tag: "Refused"; readonly response: HttpServerResponse.HttpServerResponse }
  | {
      readonly _tag: "Admitted"
      readonly principal: RequestPrincipal.Principal
      readonly owner: Effect.Effect<Idempotency.Owner> | undefined
      readonly afterwards: Afterwards | undefined
    }

const refused = (response: HttpServerResponse.HttpServerResponse): Admission => ({ _tag: "Refused", response })

const anonymous: Admission = {
  _tag: "Admitted",
  principal: { _tag: "Anonymous" },
  owner: undefined,
  afterwards: undefined
}

/** The edge around each matched route, holding each to its policy: `contract`'s for the contract's, `others`' for the rest. */
export const middleware = (contract: RoutePolicy.OfContract, others: ReadonlyArray<RoutePolicy.Route>) =>
  HttpRouter.middleware(
    Effect.gen(function* () {
      const authentication = yield* Authentication
      const invoices = yield* Invoices
      const idempotent = yield* Idempotency.make
      const perKey = yield* RequestLimits.KeyRateLimit
      const keyLimit: RateLimiter.Limit = { burst: perKey * 2, perSecond: perKey }
      // Without a limiter provided, this server's own buckets, in memory.
      const limiter = yield* Option.match(yield* Effect.serviceOption(RateLimiter.RateLimiter), {
        onNone: () => RateLimiter.inMemory,
        onSome: Effect.succeed
      })
      const cardVelocity = yield* CardVelocity.make(limiter)
      const policyOf = policies(contract, others)

      /** A 429 when `bucket` is spent, else `undefined`. */
      const limited = (
        bucket: string,
        limit: RateLimiter.Limit,
        message: string
      ): Effect.Effect<HttpServerResponse.HttpServerResponse | undefined> =>
        Effect.map(limiter.take(bucket, limit), (decision) =>
          decision.allowed ? undefined : tooMany(message, decision.retryAfterSeconds)
        )
      const byAddress = (address: string) =>
        limited(`address:${address}`, RateLimiter.publicLimit, "too many requests from this address; try again later")

      /** How each kind of access admits a request, on its headers alone. */
      const admit: {
        readonly [A in RoutePolicy.Access]: (
          request: HttpServerRequest.HttpServerRequest,
          policy: RoutePolicy.RoutePolicy
        ) => Effect.Effect<
          Admission,
          never,
          HttpServerRequest.HttpServerRequest | HttpServerRequest.ParsedSearchParams | HttpRouter.RouteContext
        >
      } = {
        open: () => Effect.succeed(anonymous),

        // Each notification makes Fatura ask the provider about what it names: bounded per sender.
        provider: (request) =>
          Effect.map(byAddress(clientAddress(request)), (overLimit) =>
            overLimit === undefined ? anonymous : refused(overLimit)
          ),

        // The documentation's answers are up to megabytes: bounded per sender too.
        documentation: (request) =>
          Effect.map(byAddress(clientAddress(request)), (overLimit) =>
            overLimit === undefined ? anonymous : refused(overLimit)
          ),

        secretKey: (request) =>
          Effect.gen(function* () {
            const authenticated = yield* Effect.result(authentication.authenticate(yield* secretKeyToken))
            if (Result.isFailure(authenticated)) {
              const refusal = ErrorResponses.of(toResponse(authenticated.failure))
              // A request no key vouches for is limited by where it comes from; one the database could not judge
              // (503) was not refused, and spends nothing.
              return refused(
                authenticated.failure._tag === "Unauthenticated"
                  ? ((yield* byAddress(clientAddress(request))) ?? refusal)
                  : refusal
              )
            }
            const caller = authenticated.success
            const bucket = `key:${caller.keyId}`
            const overLimit = yield* limited(
              bucket,
              keyLimit,
              `more than ${perKey} requests a second with this key; try again later`
            )
            if (overLimit !== undefined) return refused(overLimit)
            return {
              _tag: "Admitted",
              principal: { _tag: "SecretKey", caller },
              owner: Effect.succeed({
                principal: `company ${caller.companyId} ${caller.mode}`,
                companyId: caller.companyId
              }),
              afterwards: (response) => ResponseCost.pay(limiter, bucket, keyLimit, response)
            }
          }),

        publicToken: (request) =>
          Effect.gen(function* () {
            const address = clientAddress(request)
            const overLimit = yield* byAddress(address)
            if (overLimit !== undefined) return refused(overLimit)
            const authenticated = yield* Effect.result(authentication.authenticatePublic(yield* publicToken))
            if (Result.isFailure(authenticated)) return refused(ErrorResponses.of(toResponse(authenticated.failure)))
            const caller = authenticated.success
            const overVelocity = yield* cardVelocity.take(caller, address)
            if (overVelocity !== undefined) return refused(overVelocity)
            return {
              _tag: "Admitted",
              principal: { _tag: "PublicToken", caller },
              owner: Effect.succeed({
                principal: `company ${caller.company.id} ${caller.mode}`,
                companyId: caller.company.id
              }),
              afterwards: (response) => cardVelocity.settle(caller, address, response)
            }
          }),

        checkoutToken: (request, policy) =>
          Effect.gen(function* () {
            const overLimit = yield* byAddress(clientAddress(request))
            if (overLimit !== undefined) return refused(overLimit)
            const token = (yield* HttpServerRequest.ParsedSearchParams).token
            // Without one token there is no invoice to act on: 404 whatever the key, as for a wrong token (the
            // contract's routes require it, so their own schema would call it a 400). The page says so itself.
            if (typeof token !== "string") {
              return policy.page
                ? anonymous
                : refused(ErrorResponses.of(new NotFound({ message: "no invoice with that id" })))
            }
            // A body is read for the invoice the token opens only: the token is checked against it first. A route
            // without a body leaves the check to its use case, which makes it anyway.
            if (policy.takesPayload) {
              const { params } = yield* HttpRouter.RouteContext
              const found = yield* Effect.result(invoices.findForPayer(params.secureId ?? "", token))
              if (Result.isFailure(found)) return refused(ErrorResponses.of(toResponse(found.failure)))
            }
            // The key is scoped by the token alone.
            return {
              _tag: "Admitted",
              principal: { _tag: "Anonymous" },
              owner: Effect.map(Secrets.sha256Hex(token), (hash) => ({
                principal: `checkout ${hash}`,
                companyId: null
              })),
              afterwards: undefined
            }
          })
      }

      /** `next` for the principal its admission names, with its body read and its `Idempotency-Key` held. */
      const admitted = <E, R>(
        policy: RoutePolicy.RoutePolicy,
        next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
      ) =>
        Effect.gen(function* () {
          const admission = yield* admit[policy.access](yield* HttpServerRequest.HttpServerRequest, policy)
          if (admission._tag === "Refused") return admission.response
          const answered = ErrorEnvelope.answerInvalidRequest(next)
          const once =
            admission.owner === undefined
              ? answered
              : idempotent(admission.owner, policy.takesPayload, policy.callsProviders, answered)
          const response = yield* Effect.provideService(
            policy.takesPayload ? RequestBody.read(once) : once,
            RequestPrincipal.Current,
            admission.principal
          )
          if (admission.afterwards !== undefined) yield* admission.afterwards(response)
          return response
        })

      return (next) =>
        Effect.gen(function* () {
          const { route } = yield* HttpRouter.RouteContext
          ;(yield* AccessLog.MatchedRoute).route = route.path
          const policy = policyOf.get(`${route.method} ${route.path}`) ?? RoutePolicy.unlisted
          return yield* RequestTarget.checkQuery(RequestBody.checkDeclaration(admitted(policy, next)))
        })
    })
  )
