// Webhook notifications (the spec's `listaPix` callback): `POST {webhookUrl}/pix` with `{ "pix": [ … ] }` when a pix
// is received and when one of its refunds is settled. Not signed, as the standard has it: the receiver confirms by
// asking `GET /pix/{e2eid}`. Each is retried a few times, then given up with a warning in the log.
import { Context, Effect, FiberSet, Layer, Option, Schedule } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as PixWire from "./PixWire.js"
import type { ReceivedPix } from "./ReceivedPix.js"
import { Switches } from "./Switches.js"
import { Webhooks } from "./Webhooks.js"

/** What became of a notification: sent off (its delivery goes on in the background), or why there was none. */
export type NotificationOutcome = "queued" | "dropped" | "no webhook"

/** Three retries after the first attempt: 250 ms, 500 ms, 1 s apart. */
const retries = { schedule: Schedule.exponential("250 millis"), times: 3 } as const
const attemptTimeout = "5 seconds"

/** The callback's address: `{webhookUrl}/pix`, without doubling a slash the URL ends with. */
export const callbackUrl = (webhookUrl: string): string => `${webhookUrl.replace(/\/$/, "")}/pix`

export class Notifications extends Context.Service<
  Notifications,
  { readonly notify: (pix: ReceivedPix) => Effect.Effect<NotificationOutcome> }
>()("@fatura/pix-psp/Notifications") {
  static readonly layer = Layer.effect(
    Notifications,
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const switches = yield* Switches
      const client = HttpClient.filterStatusOk(yield* HttpClient.HttpClient)
      const deliveries = yield* FiberSet.make()

      const deliver = (url: string, pix: ReceivedPix) =>
        client
          .execute(HttpClientRequest.post(url).pipe(HttpClientRequest.bodyJsonUnsafe({ pix: [PixWire.pix(pix)] })))
          .pipe(
            Effect.timeout(attemptTimeout),
            Effect.retry(retries),
            Effect.andThen(Effect.logInfo("webhook notified", { url, endToEndId: pix.endToEndId })),
            Effect.catchCause((cause) =>
              Effect.logWarning("webhook notification given up", { url, endToEndId: pix.endToEndId, cause })
            )
          )

      return Notifications.of({
        notify: (pix) =>
          Effect.gen(function* () {
            if ((yield* switches.current).dropNotifications) return "dropped"
            const webhook = yield* webhooks.find(pix.chave)
            if (Option.isNone(webhook)) return "no webhook"
            yield* FiberSet.run(deliveries, deliver(callbackUrl(webhook.value.webhookUrl), pix))
            return "queued"
          })
      })
    })
  )
}
