// The test acquirer as a network acquirer behaves to the service: it answers once the event loop has turned, behind a
// gate a test may close, and it can lose its answers (it charges, and the connection dies before the answer is read).
// Its charges and reversals are there to read, and `state` counts the charges waiting at the gate and those made.
import { CardAcquirer } from "@fatura/application"
import { TestCardAcquirer } from "@fatura/application/testing"
import { Effect, Layer } from "effect"

export const gatedAcquirer = () => {
  const charges: TestCardAcquirer.Charges = new Map()
  const reversals: TestCardAcquirer.Reversals = new Map()
  const inner = TestCardAcquirer.make(charges, reversals)
  let gate = Promise.resolve()
  let openGate = () => {}
  const state = { waiting: 0, charged: 0, loseAnswers: false }
  const acquirer = CardAcquirer.of({
    ...inner,
    charge: (request) =>
      Effect.gen(function* () {
        state.waiting += 1
        yield* Effect.promise(() => gate)
        yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
        state.waiting -= 1
        const result = yield* inner.charge(request)
        state.charged += 1
        if (state.loseAnswers) return yield* Effect.die(new Error("the acquirer's answer was lost on its way"))
        return result
      })
  })
  return {
    layer: Layer.succeed(CardAcquirer, acquirer),
    charges,
    reversals,
    state,
    /** Holds every charge from now on at the gate, until `open`. */
    close: () => {
      gate = new Promise((resolve) => {
        openGate = resolve
      })
    },
    open: () => openGate()
  }
}

/** Waits, without a deadline of its own, until `condition` holds. */
export const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10))
}
