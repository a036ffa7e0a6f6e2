// Events and postback deliveries (SPEC 4.8): what happened to the caller's invoices, and where it was sent.
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { InvalidRequest, NotFound, Unavailable } from "./ApiError.js"
import { SecretKeyAuthorization } from "./Authorization.js"
import { PostbackEvent, PostbackEventType } from "./Postback.js"
import * as Rfc3339 from "./Rfc3339.js"

export const EventPage = Schema.Struct({
  data: Schema.Array(PostbackEvent),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String)
})

export const Delivery = Schema.Struct({
  id: Schema.Int,
  event_id: Schema.String,
  url: Schema.String,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  attempts: Schema.Int,
  last_status_code: Schema.NullOr(Schema.Int),
  last_error: Schema.NullOr(Schema.String),
  next_attempt_at: Schema.NullOr(Rfc3339.DateTime),
  created_at: Rfc3339.DateTime,
  updated_at: Rfc3339.DateTime
})
export type Delivery = typeof Delivery.Type

const reference = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64))

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("events", "/events", {
      query: {
        limit: Schema.optionalKey(
          Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 }))
        ),
        starting_after: Schema.optionalKey(reference),
        type: Schema.optionalKey(PostbackEventType),
        invoice_id: Schema.optionalKey(reference)
      },
      success: EventPage,
      error: [InvalidRequest, NotFound, Unavailable]
    }).annotateMerge(
      OpenApi.annotations({ summary: "List events", description: "Newest first, like the invoice list." })
    ),
    HttpApiEndpoint.get("deliveries", "/webhooks/deliveries", {
      query: { event_id: Schema.optionalKey(reference), invoice_id: Schema.optionalKey(reference) },
      success: Schema.Struct({ data: Schema.Array(Delivery) }),
      error: [InvalidRequest, NotFound, Unavailable]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "List deliveries",
        description: "Of one event (`event_id`) or one invoice (`invoice_id`)."
      })
    ),
    HttpApiEndpoint.post("retry", "/webhooks/deliveries/:id/retry", {
      params: { id: Schema.NumberFromString.check(Schema.isInt()) },
      success: HttpApiSchema.Empty(202),
      error: [NotFound, Unavailable]
    }).annotateMerge(OpenApi.annotations({ summary: "Retry a delivery now", description: "Also a failed one." })),
    HttpApiEndpoint.post("rollSecret", "/webhooks/secret/roll", {
      success: Schema.Struct({ secret: Schema.String }),
      error: Unavailable
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Roll the signing secret of the key's mode",
        description:
          "Shown once. Signs the postbacks of the key's mode (test or live) only. The secret it replaces, and any " +
          "other rolled within the last 24 h, keeps signing alongside until 24 h after its roll."
      })
    )
  )
  .middleware(SecretKeyAuthorization)
  .prefix("/api/v2")
  .annotateMerge(OpenApi.annotations({ title: "Postbacks" })) {}
