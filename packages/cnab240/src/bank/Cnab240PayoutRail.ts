// The payout rail of a bank that pays from its files (SPEC 15.2): a withdrawal handed over is queued once, as an
// attempt the next payments remessa carries — a credit in account at the bank itself, else a pix by the account's
// details — and what the retornos said of its latest attempt is what the rail answers. Nothing is sent here: the
// exchange sends, and a withdrawal handed over twice is queued once.
import {
  type BankPayout,
  BankPayoutRepository,
  PayoutRail,
  type PayoutState,
  PayoutUnavailable
} from "@fatura/application"
import { Timestamp } from "@fatura/domain"
import { Clock, Effect, Layer, Option } from "effect"
import type * as Cobranca from "../Cobranca.js"
import { describeOccurrences } from "../Occurrences.js"

/** What the rail says of an attempt. */
export const stateOf = (payout: BankPayout): PayoutState => {
  switch (payout.status) {
    case "queued":
    case "accepted":
      return { _tag: "Processing" }
    case "paid":
      return {
        _tag: "Paid",
        rail: payout.form === "pix" ? "pix" : payout.form === "ted" ? "ted" : null,
        endToEndId: payout.endToEndId,
        at: payout.updatedAt
      }
    case "failed":
    case "returned":
      return { _tag: "Failed", reason: describeOccurrences(payout.occurrences) }
  }
}

/** The queue could not be read or written: the withdrawal is asked about again at its next look. */
const unavailable = () => new PayoutUnavailable({ reason: "the queue of the bank's payments could not be reached" })

export const layer = (account: Cobranca.Agreement) =>
  Layer.effect(
    PayoutRail,
    Effect.gen(function* () {
      const payouts = yield* BankPayoutRepository
      const now = Effect.map(Clock.currentTimeMillis, (millis) => Timestamp.fromEpochMicros(BigInt(millis) * 1000n))
      return PayoutRail.of({
        // The bank pays both modes: a live withdrawal and a test one go the same way.
        available: () => Effect.void,
        send: (payout) =>
          Effect.gen(function* () {
            const form = payout.destination.bank.code === account.bankCode ? "creditInAccount" : "pix"
            const queued = yield* payouts.enqueue(
              { withdrawalId: payout.id, form, amount: payout.amount, destination: payout.destination },
              yield* now
            )
            return stateOf(queued)
          }).pipe(Effect.mapError(unavailable)),
        status: (payout) =>
          Effect.map(payouts.latest(payout.id), (latest) =>
            Option.match(latest, { onNone: (): PayoutState => ({ _tag: "Unknown" }), onSome: stateOf })
          ).pipe(Effect.mapError(unavailable))
      })
    })
  )
