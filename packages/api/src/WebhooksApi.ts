// Events and postback deliveries (SPEC 4.8): what happened to the caller's invoices, and where it was sent.
import { Timestamp } from "@fatura/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NotFoundResponse } from "./ApiErrorResponse.js"
import { SecretKeyAuthorization } from "./Authorization.js"
import { IntegerText } from "./IntegerText.js"
import { PageLimit } from "./InvoicePage.js"
import { PostbackEvent, PostbackEventId, PostbackEventType } from "./Postback.js"
import * as RouteErrors from "./RouteErrors.js"

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
      description: "Events of the caller's invoices, their deliveries to `postback_url`, and the signing secret."
    })
  ) {}
