// The sandbox payout rail (SPEC 13.3): pays a test withdrawal a few seconds after it is handed over, fails one to an
// account ending in 0000 and returns one to an account ending in 1111 after paying it (`sandboxState`). It keeps
// nothing: it answers from the payout and the clock alone. It has no live mode: live withdrawals need a bank, and are
// unavailable.
import { PayoutRail, PayoutUnavailable, sandboxState } from "@fatura/application"
import { Clock, Effect, Layer } from "effect"

const stateOf = (payout: Parameters<PayoutRail["Service"]["status"]>[0]) =>
  Effect.map(Clock.currentTimeMillis, (now) => sandboxState(payout, now))

export const layer = Layer.succeed(
  PayoutRail,
  PayoutRail.of({
    available: (mode) =>
      mode === "test"
        ? Effect.void
        : Effect.fail(new PayoutUnavailable({ reason: "no payout rail pays live withdrawals: no bank is configured" })),
    send: stateOf,
    status: stateOf
  })
)
