// Where the pix provider notifies (`POST /pix-api/webhook/pix`, the API Pix's callback on the URL Fatura registers
// with `PUT /webhook/{chave}`): the pix it received and the returns it settled. The body is not signed, so it is only
// read for the ids it names; each is asked of the provider before anything is paid (`PixSettlements`). A 2xx tells
// the provider the notification was taken; anything else makes it try again.
import { InvalidRequest, Unavailable } from "@fatura/api"
import { PixSettlements } from "@fatura/application"
import { Effect, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import * as ErrorResponses from "./ErrorResponses.js"
import { RequestBody } from "./RequestBody.js"

/**
 * The notification as far as it is read: the ids, nothing of amounts or payers, which are asked of the provider. At
 * most 100 pix, each asked about: a PSP notifies as pix arrive, and what a longer list holds the reconciliation finds.
 */
const Notification = Schema.Struct({
  pix: Schema.Array(
    Schema.Struct({
      endToEndId: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9]{1,32}$/)),
      devolucoes: Schema.optionalKey(
        Schema.Array(Schema.Struct({ id: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9]{1,35}$/)) }))
      )
    })
  ).check(Schema.isMaxLength(100))
})
const decodeNotification = Schema.decodeUnknownEffect(Notification)

const notANotification = 'is not an API Pix notification: { "pix": [ { "endToEndId": … } ] }'
const malformed = ErrorResponses.of(
  new InvalidRequest({ message: notANotification, issues: [{ path: "", message: notANotification }] })
)

const notified = Effect.gen(function* () {
  const settlements = yield* PixSettlements
  const body = yield* RequestBody
  if (body._tag !== "Json") return body._tag === "Refused" ? ErrorResponses.of(body.error) : malformed
  const decoded = yield* Effect.result(decodeNotification(body.value))
  if (decoded._tag === "Failure") return malformed
  const pix = decoded.success.pix.map((entry) => ({
    endToEndId: entry.endToEndId,
    returnIds: (entry.devolucoes ?? []).map((refund) => refund.id)
  }))
  return yield* settlements.notified(pix).pipe(
    Effect.as(HttpServerResponse.empty({ status: 204 })),
    Effect.catchTags({
      PixProviderUnavailable: (error) =>
        Effect.as(
          Effect.logWarning("pix notification not confirmed: the provider could not be asked", { error }),
          ErrorResponses.of(new Unavailable({ code: "provider_unavailable", message: "try again later" }))
        ),
      StorageUnavailable: () =>
        Effect.succeed(
          ErrorResponses.of(new Unavailable({ code: "unavailable", message: "the service is temporarily unavailable" }))
        )
    })
  )
})

export const path = "/pix-api/webhook/pix"

/** The URL to register with the provider: it notifies `<url>/pix`. */
export const webhookUrl = (publicBaseUrl: string) => `${publicBaseUrl.replace(/\/$/, "")}/pix-api/webhook`

export const layer = HttpRouter.add("POST", path, notified)
