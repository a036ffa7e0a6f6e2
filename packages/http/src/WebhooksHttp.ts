// Handlers of events and postback deliveries (SPEC 4.8), and of webhook endpoints (13.5).
import { Caller, FaturaApi, InvalidRequest, type Postback, type WebhookEndpointResource } from "@fatura/api"
import { type Endpoint, Postbacks, WebhookEndpoints } from "@fatura/application"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { toResponse } from "./FailureResponses.js"
import * as RoutePolicy from "./RoutePolicy.js"

/** What each route of the group lets through (`RouteAccess`). */
export const policies: RoutePolicy.OfGroup<"webhooks"> = {
  events: RoutePolicy.secretKey,
  deliveries: RoutePolicy.secretKey,
  retry: RoutePolicy.secretKey,
  createEndpoint: RoutePolicy.secretKey,
  endpoints: RoutePolicy.secretKey,
  deleteEndpoint: RoutePolicy.secretKey,
  rollSecret: RoutePolicy.secretKey
}

const toWireEndpoint = (endpoint: Endpoint): WebhookEndpointResource => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  created_at: endpoint.createdAt
})

export const layer = HttpApiBuilder.group(
  FaturaApi,
  "webhooks",
  Effect.fn(function* (handlers) {
    const postbacks = yield* Postbacks
    const webhookEndpoints = yield* WebhookEndpoints
    return handlers
      .handle("events", ({ query }) =>
        Effect.gen(function* () {
          const page = yield* postbacks.events(yield* Caller, {
            limit: query.limit ?? 20,
            startingAfter: query.starting_after ?? null,
            type: query.type ?? null,
            invoice: query.invoice_id ?? null
          })
          const last = page.events.at(-1)
          return {
            // Events are stored as they were sent: already in the contract's shapes.
            data: page.events.map(
              (event) =>
                ({
                  id: event.id,
                  type: event.type,
                  created_at: event.createdAt,
                  livemode: event.livemode,
                  data: event.data,
                  ...(event.reason === null ? {} : { reason: event.reason })
                }) as Postback.PostbackEvent
            ),
            has_more: page.hasMore,
            next_cursor: page.hasMore && last !== undefined ? last.id : null
          }
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("deliveries", ({ query }) =>
        Effect.gen(function* () {
          const caller = yield* Caller
          if ((query.event_id === undefined) === (query.invoice_id === undefined)) {
            return yield* new InvalidRequest({
              message: "event_id or invoice_id: give exactly one",
              issues: [{ path: "event_id", message: "give exactly one of event_id and invoice_id" }]
            })
          }
          const deliveries = yield* postbacks
            .deliveries(
              caller,
              query.event_id !== undefined ? { eventId: query.event_id } : { invoice: query.invoice_id ?? "" }
            )
            .pipe(Effect.mapError(toResponse))
          return {
            data: deliveries.map((delivery) => ({
              id: delivery.id,
              event_id: delivery.eventId,
              endpoint_id: delivery.endpointId,
              url: delivery.url,
              status: delivery.status,
              attempts: delivery.attempts,
              last_status_code: delivery.lastStatusCode,
              last_error: delivery.lastError,
              next_attempt_at: delivery.nextAttemptAt,
              created_at: delivery.createdAt,
              updated_at: delivery.updatedAt
            }))
          }
        })
      )
      .handle("retry", ({ params }) =>
        Effect.gen(function* () {
          yield* postbacks.retry(yield* Caller, params.id)
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("createEndpoint", ({ payload }) =>
        Effect.gen(function* () {
          const endpoint = yield* webhookEndpoints.create(yield* Caller, payload)
          return toWireEndpoint(endpoint)
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("endpoints", () =>
        Effect.gen(function* () {
          const endpoints = yield* webhookEndpoints.list(yield* Caller)
          return { data: endpoints.map(toWireEndpoint) }
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("deleteEndpoint", ({ params }) =>
        Effect.gen(function* () {
          yield* webhookEndpoints.remove(yield* Caller, params.id)
        }).pipe(Effect.mapError(toResponse))
      )
      .handle("rollSecret", () =>
        Effect.gen(function* () {
          return { secret: yield* postbacks.rollSecret(yield* Caller) }
        }).pipe(Effect.mapError(toResponse))
      )
  })
)
