// What happens to money here: a payer pays a charge (the simulator's stand-in for the payer's PSP and the SPI), and
// the client refunds a pix it received, which settles after PIX_PSP_REFUND_DELAY_MS. Both end in a webhook
// notification.
import { Clock, Context, Effect, FiberSet, Layer, Option, Schema } from "effect"
import { type Charge, Charges, isPayable, kindOf, termsOf } from "./Charges.js"
import { type NotificationOutcome, Notifications } from "./Notifications.js"
import { PspSettings } from "./PspSettings.js"
import {
  PixNotFound,
  type ReceivedPix,
  ReceivedPixes,
  type Refund,
  RefundRefused,
  type RefundRequest
} from "./ReceivedPix.js"
import { Switches } from "./Switches.js"

export class ChargeNotFound extends Schema.TaggedError<ChargeNotFound>()("ChargeNotFound", { txid: Schema.String }) {}

export class ChargeNotPayable extends Schema.TaggedError<ChargeNotPayable>()("ChargeNotPayable", {
  txid: Schema.String,
  reason: Schema.String
}) {}

export interface Payment {
  readonly pix: ReceivedPix
  readonly charge: Charge
  readonly notification: NotificationOutcome
}

export class Payments extends Context.Service<
  Payments,
  {
    /**
     * A payer pays the charge, of either kind, `valor` cents (its own amount when not said); it is CONCLUIDA when they
     * match.
     */
    readonly pay: (
      txid: string,
      payment: { readonly valor?: number; readonly infoPagador?: string }
    ) => Effect.Effect<Payment, ChargeNotFound | ChargeNotPayable>
    readonly refund: (
      endToEndId: string,
      id: string,
      request: RefundRequest
    ) => Effect.Effect<{ readonly pix: ReceivedPix; readonly refund: Refund }, PixNotFound | RefundRefused>
  }
>()("@fatura/pix-psp/Payments") {
  static readonly layer = Layer.effect(
    Payments,
    Effect.gen(function* () {
      const charges = yield* Charges
      const received = yield* ReceivedPixes
      const notifications = yield* Notifications
      const switches = yield* Switches
      const { refundDelayMs } = yield* PspSettings
      const settlements = yield* FiberSet.make()

      const settleLater = (endToEndId: string, id: string) =>
        Effect.sleep(refundDelayMs).pipe(
          Effect.andThen(received.settleRefund(endToEndId, id)),
          Effect.flatMap(Option.match({ onNone: () => Effect.void, onSome: (pix) => notifications.notify(pix) }))
        )

      return Payments.of({
        pay: Effect.fn("Payments.pay")(function* (txid, payment) {
          const found = yield* charges.find(txid)
          if (Option.isNone(found)) return yield* new ChargeNotFound({ txid })
          const now = yield* Clock.currentTimeMillis
          if (!isPayable(found.value, now)) {
            const reason =
              found.value.status !== "ATIVA"
                ? `a cobrança está ${found.value.status}`
                : kindOf(found.value) === "cob"
                  ? "a cobrança expirou"
                  : "a cobrança venceu e passou da validade após o vencimento"
            return yield* new ChargeNotPayable({ txid, reason })
          }
          const terms = termsOf(found.value)
          const valor = payment.valor ?? terms.original
          const pix = yield* received.record({
            txid,
            valor,
            chave: terms.chave,
            ...(payment.infoPagador === undefined ? {} : { infoPagador: payment.infoPagador })
          })
          if (valor === terms.original) yield* charges.conclude(txid)
          const charge = Option.getOrElse(yield* charges.find(txid), () => found.value)
          const notification = yield* notifications.notify(pix)
          return { pix, charge, notification }
        }),
        refund: Effect.fn("Payments.refund")(function* (endToEndId, id, request) {
          const { refuseRefunds, refuseRefundRequests } = yield* switches.current
          const pix = yield* received.find(endToEndId)
          if (Option.isNone(pix)) return yield* new PixNotFound({ endToEndId })
          // As a PSP refuses a refund asked for more than 90 days after its pix: at once, and none is made. One made
          // already under this id is answered as ever.
          if (refuseRefundRequests && !pix.value.refunds.some((refund) => refund.id === id)) {
            return yield* new RefundRefused({
              reason: "O prazo de 90 dias para devolver este pix terminou (simulador: refuseRefundRequests).",
              property: "e2eid"
            })
          }
          const asked = yield* received.requestRefund(
            endToEndId,
            id,
            request,
            refuseRefunds ? "NAO_REALIZADO" : "DEVOLVIDO"
          )
          if (asked.isNew) yield* FiberSet.run(settlements, settleLater(endToEndId, id))
          return { pix: asked.pix, refund: asked.refund }
        })
      })
    })
  )
}
