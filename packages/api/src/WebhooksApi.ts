// Events and postback deliveries (SPEC 4.8): what happened to the caller's invoices, and where it was sent; and the
// webhook endpoints that subscribe URLs to the company's events (13.5).
import { Timestamp } from "@fatura/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NotFoundResponse, UnprocessableResponse } from "./ApiErrorResponse.js"
import { SecretKeyAuthorization } from "./Authorization.js"
import { IntegerText } from "./IntegerText.js"
import { PageLimit } from "./InvoicePage.js"
import { PostbackEvent, PostbackEventId, PostbackEventType } from "./Postback.js"
import * as RouteErrors from "./RouteErrors.js"
import { WebhookEndpointId, WebhookEndpointRequest, WebhookEndpointResource } from "./WebhookEndpointRequest.js"

export const EventPage = Schema.Struct({
  data: Schema.Array(PostbackEvent),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(PostbackEventId).annotate({
    description: "The id of the last event of this page, to pass as `starting_after`; null on the last page."
  })
}).annotate({ identifier: "EventPage" })

export const Delivery = Schema.Struct({
  id: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  event_id: PostbackEventId,
  endpoint_id: Schema.NullOr(WebhookEndpointId).annotate({
    description: "The webhook endpoint it goes to; null for the invoice's `postback_url`."
  }),
  url: Schema.String.annotate({ format: "uri" }),
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  attempts: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  last_status_code: Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 100, maximum: 599 }))),
  last_error: Schema.NullOr(Schema.String),
  next_attempt_at: Schema.NullOr(Timestamp.Timestamp),
  created_at: Timestamp.Timestamp,
  updated_at: Timestamp.Timestamp
}).annotate({ identifier: "Delivery" })
export type Delivery = typeof Delivery.Type

const reference = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64))

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("events", "/events", {
      query: {
        limit: Schema.optionalKey(PageLimit),
        starting_after: Schema.optionalKey(reference),
        type: Schema.optionalKey(PostbackEventType),
        invoice_id: Schema.optionalKey(reference)
      },
      success: EventPage,
      error: [...RouteErrors.anyRequest, NotFoundResponse]
    }).annotateMerge(
      OpenApi.annotations({ summary: "List events", description: "Newest first, like the invoice list." })
    ),
    HttpApiEndpoint.get("deliveries", "/webhooks/deliveries", {
      query: { event_id: Schema.optionalKey(reference), invoice_id: Schema.optionalKey(reference) },
      success: Schema.Struct({ data: Schema.Array(Delivery) }).annotate({ identifier: "DeliveryList" }),
      error: [...RouteErrors.anyRequest, NotFoundResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "List deliveries",
        description: "Of one event (`event_id`) or one invoice (`invoice_id`)."
      })
    ),
    HttpApiEndpoint.post("retry", "/webhooks/deliveries/:id/retry", {
      params: { id: IntegerText({ minimum: 1, description: "The delivery's id." }) },
      success: HttpApiSchema.Empty(202),
      error: [...RouteErrors.anyPost, NotFoundResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Retry a delivery now",
        description: "Schedules an immediate new attempt, also of a delivery that has `failed`. No body."
      })
    ),
    HttpApiEndpoint.post("createEndpoint", "/webhooks/endpoints", {
      payload: WebhookEndpointRequest,
      success: WebhookEndpointResource.pipe(HttpApiSchema.status(201)),
      error: [...RouteErrors.anyPost, UnprocessableResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Create a webhook endpoint",
        description:
          "Every event of the key's mode whose type one of `events` matches is POSTed to `url`, signed, retried and " +
          "listed like a postback; an event goes once to each distinct URL, the invoice's `postback_url` included. " +
          "At most 10 endpoints per company and mode (`422 unprocessable`); a URL postbacks may not go to is " +
          "`422 postback_url_not_allowed`."
      })
    ),
    HttpApiEndpoint.get("endpoints", "/webhooks/endpoints", {
      success: Schema.Struct({ data: Schema.Array(WebhookEndpointResource) }).annotate({
        identifier: "WebhookEndpointList"
      }),
      error: RouteErrors.anyRequest
    }).annotateMerge(
      OpenApi.annotations({ summary: "List webhook endpoints", description: "Of the key's mode, oldest first." })
    ),
    HttpApiEndpoint.delete("deleteEndpoint", "/webhooks/endpoints/:id", {
      params: { id: WebhookEndpointId.annotate({ description: "The endpoint's id." }) },
      success: HttpApiSchema.NoContent,
      error: [...RouteErrors.anyRequest, NotFoundResponse]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Delete a webhook endpoint",
        description:
          "No event recorded from then on goes to it; deliveries already queued for it are still attempted, and " +
          "keep its id."
      })
    ),
    HttpApiEndpoint.post("rollSecret", "/webhooks/secret/roll", {
      success: Schema.Struct({
        secret: Schema.String.annotate({ examples: ["whsec_3q2+7w5e8r9t0y1u2i3o4p5a6s7d8f9g"] })
      }).annotate({ identifier: "WebhookSecret" }),
      error: RouteErrors.anyPost
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Roll the signing secret of the key's mode",
        description:
          "Shown once. Signs the postbacks of the key's mode (test or live) only. The secret it replaces, and any " +
          "other rolled within the last 24 h, keeps signing alongside until 24 h after its roll — the two rolled " +
          "last at most: a roll past them ends the oldest one's overlap at once."
      })
    )
  )
  .middleware(SecretKeyAuthorization)
  .prefix("/api/v2")
  .annotateMerge(
    OpenApi.annotations({
      title: "Postbacks",
      description:
        "Events of the caller's invoices, their deliveries to `postback_url` and to webhook endpoints, the " +
        "endpoints, and the signing secret."
    })
  ) {}
