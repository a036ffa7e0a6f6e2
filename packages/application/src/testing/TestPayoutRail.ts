// A stand-in payout rail that answers as the sandbox's does (`sandboxState`, by the clock, which a test moves) in both
// modes, and counts how many times each payout was handed over, so that a test can see none is paid twice.
import { Clock, Effect, Layer } from "effect"
import { PayoutRail, sandboxState } from "../withdrawals/PayoutRail.js"

/** How many times each payout was handed over, by withdrawal id. */
export type Sends = Map<string, number>

export const make = (sends: Sends) =>
  PayoutRail.of({
    available: () => Effect.void,
    send: (payout) =>
      Effect.flatMap(
        Effect.sync(() => sends.set(payout.id, (sends.get(payout.id) ?? 0) + 1)),
        () => Effect.map(Clock.currentTimeMillis, (now) => sandboxState(payout, now))
      ),
    status: (payout) => Effect.map(Clock.currentTimeMillis, (now) => sandboxState(payout, now))
  })

export const layer = Layer.sync(PayoutRail, () => make(new Map()))
