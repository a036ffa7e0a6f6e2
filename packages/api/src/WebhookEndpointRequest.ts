// Webhook endpoints on the wire (SPEC 13.5): what a company sends to subscribe a URL to its events, and the endpoint
// it gets back.
import { Timestamp, WebhookEndpoint } from "@fatura/domain"
import { Schema } from "effect"
import { PostbackUrl } from "./CreateInvoiceRequest.js"

export const WebhookEndpointId = Schema.String.check(
  Schema.isPattern(/^we_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
    expected: "we_ followed by a lowercase UUID"
  })
).annotate({ examples: ["we_0b4658a7-76aa-4a0d-9a1f-3c2e8d7f6b21"] })

const EventPatterns = Schema.Array(WebhookEndpoint.EventPattern).check(Schema.isMinLength(1), Schema.isMaxLength(32))

export const WebhookEndpointRequest = Schema.Struct({
  url: PostbackUrl.check(Schema.isMinLength(1)).annotate({
    description: "Where the events are POSTed, signed as postbacks are; the rules of `postback_url` apply."
  }),
  events: EventPatterns.annotate({
    description: "The events it receives: `*`, a family (`invoice.*`), or event types; each kept once."
  })
}).annotate({ identifier: "WebhookEndpointRequest" })
export type WebhookEndpointRequest = typeof WebhookEndpointRequest.Type

export const WebhookEndpointResource = Schema.Struct({
  id: WebhookEndpointId,
  url: Schema.String.annotate({ format: "uri" }),
  events: EventPatterns,
  created_at: Timestamp.Timestamp
}).annotate({ identifier: "WebhookEndpoint" })
export type WebhookEndpointResource = typeof WebhookEndpointResource.Type
