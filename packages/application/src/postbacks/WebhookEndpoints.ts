// Use cases of webhook endpoints (SPEC 13.5): a company subscribes URLs to the types of its events, lists and deletes
// them. The outbox (EventOutbox) queues each event's delivery to every endpoint subscribed to it.
import { WebhookEndpoint } from "@fatura/domain"
import { Context, Effect, Layer } from "effect"
import type { Principal } from "../companies/Principal.js"
import * as Clock from "../platform/Clock.js"
import {
  EndpointLimitReached,
  EndpointNotFound,
  EndpointUrlRefused,
  type StorageUnavailable
} from "../platform/Failures.js"
import { randomUuid } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import { AllowPrivatePostbacksInTest, PostbackTargets, privateTargetsAllowed } from "./PostbackTargets.js"
import { type Endpoint, WebhookEndpointRepository } from "./WebhookEndpointRepository.js"

export interface NewEndpoint {
  readonly url: string
  readonly events: ReadonlyArray<WebhookEndpoint.EventPattern>
}

export class WebhookEndpoints extends Context.Service<
  WebhookEndpoints,
  {
    /** Subscribes `url` to the events `events` match, in the caller's mode; the URL is checked as postbacks' are (8.4). */
    readonly create: (
      principal: Principal,
      endpoint: NewEndpoint
    ) => Effect.Effect<Endpoint, EndpointUrlRefused | EndpointLimitReached | StorageUnavailable>
    readonly list: (principal: Principal) => Effect.Effect<ReadonlyArray<Endpoint>, StorageUnavailable>
    readonly remove: (
      principal: Principal,
      endpointId: string
    ) => Effect.Effect<void, EndpointNotFound | StorageUnavailable>
  }
>()("@fatura/application/WebhookEndpoints") {
  static readonly layer = Layer.effect(
    WebhookEndpoints,
    Effect.gen(function* () {
      const repository = yield* WebhookEndpointRepository
      const targets = yield* PostbackTargets
      const transactions = yield* Transactions
      // Read once, when the service is built, from whatever configured it.
      const allowPrivatePostbacksInTest = yield* AllowPrivatePostbacksInTest

      return WebhookEndpoints.of({
        create: Effect.fn("WebhookEndpoints.create")(function* (principal, input) {
          // The same rule as an invoice's postback URL at creation; every delivery checks it again when it is sent.
          if (!privateTargetsAllowed(principal.mode, allowPrivatePostbacksInTest)) {
            yield* transactions
              .external(targets.check(input.url))
              .pipe(Effect.mapError((refused) => new EndpointUrlRefused({ reason: refused.reason })))
          }
          const endpoint: Endpoint = {
            id: `we_${randomUuid()}`,
            companyId: principal.companyId,
            mode: principal.mode,
            url: input.url,
            events: WebhookEndpoint.subscribed(input.events),
            createdAt: yield* Clock.now
          }
          const added = yield* repository.add(endpoint, WebhookEndpoint.maxPerCompanyAndMode)
          if (!added) return yield* new EndpointLimitReached({ atMost: WebhookEndpoint.maxPerCompanyAndMode })
          return endpoint
        }),
        list: Effect.fn("WebhookEndpoints.list")(function* (principal) {
          return yield* repository.list(principal.companyId, principal.mode)
        }),
        remove: Effect.fn("WebhookEndpoints.remove")(function* (principal, endpointId) {
          const removed = yield* repository.remove(principal.companyId, principal.mode, endpointId, yield* Clock.now)
          if (!removed) return yield* new EndpointNotFound({ endpointId })
        })
      })
    })
  )
}
