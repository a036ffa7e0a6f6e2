// Port: the webhook endpoints a company subscribes to its events (SPEC 13.5), per mode.
import type { Company, Invoice, Timestamp, WebhookEndpoint } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export interface Endpoint {
  readonly id: string
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  readonly url: string
  readonly events: ReadonlyArray<WebhookEndpoint.EventPattern>
  readonly createdAt: Timestamp.Timestamp
}

export class WebhookEndpointRepository extends Context.Service<
  WebhookEndpointRepository,
  {
    /**
     * Adds `endpoint` unless its company already has `atMost` endpoints in its mode: false then, and nothing is added.
     * Adds for one company wait for each other, so that two at once never make one too many.
     */
    readonly add: (endpoint: Endpoint, atMost: number) => Effect.Effect<boolean, StorageUnavailable>
    /** The company's endpoints of `mode`, oldest first; deleted ones are gone. */
    readonly list: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode
    ) => Effect.Effect<ReadonlyArray<Endpoint>, StorageUnavailable>
    /**
     * Deletes the company's endpoint of `mode`: no event recorded from then on goes to it. False when the company has
     * no such endpoint in `mode`, or it was deleted already.
     */
    readonly remove: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      endpointId: string,
      at: Timestamp.Timestamp
    ) => Effect.Effect<boolean, StorageUnavailable>
  }
>()("@fatura/application/WebhookEndpointRepository") {}
