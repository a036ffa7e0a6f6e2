// The simulator's switches: what a test turns on to see how a client copes with a slow, failing or forgetful PSP, or
// one that refuses refunds.
import { Context, Effect, Layer, Ref, Schema } from "effect"

export const SwitchValues = Schema.Struct({
  /** Every API Pix answer waits this long first. */
  slowMs: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 60_000 })),
  /** Every API Pix call is answered 503 ServicoIndisponivel. */
  failing: Schema.Boolean,
  /** Pix are recorded, and refunds settled, without any webhook notification. */
  dropNotifications: Schema.Boolean,
  /** Refunds requested while on end NAO_REALIZADO instead of DEVOLVIDO. */
  refuseRefunds: Schema.Boolean,
  /**
   * Refunds requested while on are refused at once, 400 PixDevolucaoInvalida, as a PSP refuses one past the 90 days a
   * pix may be returned in: no refund is made.
   */
  refuseRefundRequests: Schema.Boolean
})
export type SwitchValues = typeof SwitchValues.Type

/** What `POST /simulator/switches` takes: any of the switches; the others keep their value. */
export const SwitchChanges = Schema.Struct({
  slowMs: Schema.optionalKey(SwitchValues.fields.slowMs),
  failing: Schema.optionalKey(Schema.Boolean),
  dropNotifications: Schema.optionalKey(Schema.Boolean),
  refuseRefunds: Schema.optionalKey(Schema.Boolean),
  refuseRefundRequests: Schema.optionalKey(Schema.Boolean)
})
export type SwitchChanges = typeof SwitchChanges.Type

export const allOff: SwitchValues = {
  slowMs: 0,
  failing: false,
  dropNotifications: false,
  refuseRefunds: false,
  refuseRefundRequests: false
}

export class Switches extends Context.Service<
  Switches,
  {
    readonly current: Effect.Effect<SwitchValues>
    readonly change: (changes: SwitchChanges) => Effect.Effect<SwitchValues>
  }
>()("@fatura/pix-psp/Switches") {
  static readonly layer = Layer.effect(
    Switches,
    Effect.gen(function* () {
      const values = yield* Ref.make(allOff)
      return Switches.of({
        current: Ref.get(values),
        change: (changes) => Ref.updateAndGet(values, (current) => ({ ...current, ...changes }))
      })
    })
  )
}
