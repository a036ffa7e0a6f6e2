// The sweep that pays withdrawals (SPEC 13.3), as card charges are made: a pending withdrawal is recorded as handed to
// the rail (`processing`) in one transaction, handed over with nothing held, and its answer written in another. An
// answer lost on the way (a crash, a timeout) is settled by asking the rail about the withdrawal's id when its next
// look comes, never by paying again; a paid one is looked at a while longer, for a bank that returns it.
import { Timestamp, Withdrawal, WithdrawalObject } from "@fatura/domain"
import { Context, Duration, Effect, Layer, Option, Result, Schedule } from "effect"
import { InvoiceRepository } from "../invoices/InvoiceRepository.js"
import * as Clock from "../platform/Clock.js"
import { CompanyNotFound, PayoutUnavailable, type StorageUnavailable } from "../platform/Failures.js"
import { randomUuid } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import { EventOutbox } from "../postbacks/EventOutbox.js"
import { type Payout, PayoutRail, type PayoutState } from "./PayoutRail.js"
import { WithdrawalRepository } from "./WithdrawalRepository.js"

const batchSize = 20

/**
 * How long a sweep holds a withdrawal it is asking the rail about before another may: longer than a call
 * (`railTimeout`).
 */
const leaseSeconds = 30

/** How long the rail has to answer; past it, the answer counts as lost and is asked for at the next look. */
export const railTimeout = Duration.seconds(20)

/** When a withdrawal is next looked at: soon after it is handed over, then as a paid one may still be returned. */
export const nextLook = (
  withdrawal: Pick<Withdrawal.Withdrawal, "status" | "paidAt">,
  now: Timestamp.Timestamp
): Timestamp.Timestamp | null => {
  if (withdrawal.status === "processing") return Timestamp.plusSeconds(now, 5)
  if (withdrawal.status !== "paid" || withdrawal.paidAt === null) return null
  const paidFor = (Timestamp.toEpochMillis(now) - Timestamp.toEpochMillis(withdrawal.paidAt)) / 1000
  if (paidFor < 600) return Timestamp.plusSeconds(now, 5)
  return paidFor < 86_400 ? Timestamp.plusSeconds(now, 3_600) : null
}

const payoutOf = (withdrawal: Withdrawal.Withdrawal): Payout => ({
  id: withdrawal.id,
  mode: withdrawal.mode,
  amount: withdrawal.amount,
  destination: withdrawal.destination,
  sentAt: withdrawal.sentAt ?? withdrawal.createdAt
})

export class WithdrawalSweep extends Context.Service<
  WithdrawalSweep,
  {
    /** Hands pending withdrawals to the rail and settles what the rail says of those due a look; how many moved. */
    readonly sweep: Effect.Effect<number, StorageUnavailable>
    /** Sweeps every `interval` for ever; a failed sweep is logged and tried again at the next tick. */
    readonly run: (interval: Duration.Input) => Effect.Effect<never>
  }
>()("@fatura/application/WithdrawalSweep") {
  static readonly layer = Layer.effect(
    WithdrawalSweep,
    Effect.gen(function* () {
      const withdrawals = yield* WithdrawalRepository
      const invoices = yield* InvoiceRepository
      const outbox = yield* EventOutbox
      const rail = yield* PayoutRail
      const transactions = yield* Transactions

      const recordEvent = (withdrawal: Withdrawal.Withdrawal, reason?: string) =>
        outbox.recordEvent({
          id: `evt_${randomUuid()}`,
          postbackUrl: null,
          companyId: withdrawal.companyId,
          invoiceId: null,
          type: Withdrawal.eventType(withdrawal.status),
          livemode: withdrawal.mode === "live",
          data: WithdrawalObject.render(withdrawal),
          createdAt: withdrawal.updatedAt,
          reason
        })

      /** Records pending withdrawals as handed to the rail, in one transaction; returns them as they now are. */
      const markSent = transactions.withTransaction(
        Effect.gen(function* () {
          const pending = yield* withdrawals.lockPending(batchSize)
          const now = yield* Clock.now
          return yield* Effect.forEach(pending, (withdrawal) =>
            Effect.gen(function* () {
              // Locked pending: sending it is a move the diagram allows.
              const sent = Result.getOrThrow(Withdrawal.move(withdrawal, "send"))
              const moved = yield* withdrawals.apply(withdrawal, {
                ...sent,
                at: now,
                sentAt: now,
                nextCheckAt: nextLook({ ...sent, paidAt: null }, now)
              })
              yield* recordEvent(moved)
              return moved
            })
          )
        })
      )

      /**
       * Writes what the rail said of a withdrawal, under its company's ledger lock: paid, failed (or returned, which
       * gives back what it drew), or nothing yet. An answer its status no longer takes (a second answer) is dropped.
       */
      const settle = (id: string, companyId: Withdrawal.Withdrawal["companyId"], state: PayoutState) =>
        transactions.withTransaction(
          Effect.gen(function* () {
            const company = yield* invoices.lockCompanyLedger(companyId)
            if (Option.isNone(company)) return yield* Effect.die(new CompanyNotFound({ companyId }))
            const locked = yield* withdrawals.lock(id)
            if (Option.isNone(locked)) return false
            const withdrawal = locked.value
            const now = yield* Clock.now
            if (state._tag === "Paid" && withdrawal.status === "processing") {
              const paid = { status: "paid" as const, paidAt: state.at }
              const moved = yield* withdrawals.apply(withdrawal, {
                status: "paid",
                movements: [],
                at: now,
                ...(state.rail === null ? {} : { rail: state.rail }),
                ...(state.endToEndId === null ? {} : { endToEndId: state.endToEndId }),
                paidAt: state.at,
                nextCheckAt: nextLook(paid, now)
              })
              yield* recordEvent(moved)
              return true
            }
            if (state._tag === "Failed" && (withdrawal.status === "processing" || withdrawal.status === "paid")) {
              const failed = Withdrawal.move(withdrawal, "fail")
              if (failed._tag === "Failure") return false
              const moved = yield* withdrawals.apply(withdrawal, {
                ...failed.success,
                at: now,
                failureReason: state.reason,
                nextCheckAt: null
              })
              yield* recordEvent(moved, state.reason)
              return true
            }
            // Nothing new: looked at again later, or no more once it is past watching.
            yield* withdrawals.apply(withdrawal, {
              status: withdrawal.status,
              movements: [],
              at: withdrawal.updatedAt,
              nextCheckAt: nextLook(withdrawal, now)
            })
            return false
          })
        )

      /** A call to the rail: never inside a transaction, and cut off when it does not answer in time. */
      const askRail = (call: Effect.Effect<PayoutState, PayoutUnavailable>) =>
        transactions.external(call).pipe(
          Effect.timeoutOrElse({
            duration: railTimeout,
            orElse: () =>
              Effect.fail(new PayoutUnavailable({ reason: `no answer within ${Duration.format(railTimeout)}` }))
          })
        )

      const answered = (withdrawal: Withdrawal.Withdrawal, state: Effect.Effect<PayoutState, PayoutUnavailable>) =>
        askRail(state).pipe(
          Effect.flatMap((answer) => settle(withdrawal.id, withdrawal.companyId, answer)),
          Effect.catchTag("PayoutUnavailable", (error) =>
            Effect.as(
              Effect.logWarning("payout rail did not answer: asked again at the next look", {
                id: withdrawal.id,
                error
              }),
              false
            )
          )
        )

      /** Hands the pending ones over, with nothing held. */
      const sendPending = Effect.gen(function* () {
        const sent = yield* markSent
        const settled = yield* Effect.forEach(sent, (withdrawal) =>
          answered(withdrawal, rail.send(payoutOf(withdrawal)))
        )
        return sent.length + settled.filter(Boolean).length
      })

      /** Asks the rail about those due a look; one it never received is handed over again, under the same id. */
      const checkDue = Effect.gen(function* () {
        const now = yield* Clock.now
        const due = yield* transactions.withTransaction(
          withdrawals.claimDue(now, Timestamp.plusSeconds(now, leaseSeconds), batchSize)
        )
        const settled = yield* Effect.forEach(due, (withdrawal) =>
          answered(
            withdrawal,
            Effect.flatMap(rail.status(payoutOf(withdrawal)), (state) =>
              state._tag === "Unknown" && withdrawal.status === "processing"
                ? rail.send(payoutOf(withdrawal))
                : Effect.succeed(state)
            )
          )
        )
        return settled.filter(Boolean).length
      })

      const sweep = Effect.gen(function* () {
        return (yield* sendPending) + (yield* checkDue)
      }).pipe(Effect.withSpan("WithdrawalSweep.sweep"))

      const run = (interval: Duration.Input) =>
        sweep.pipe(
          Effect.catchCause((cause) => Effect.logWarning("withdrawal sweep failed", cause)),
          Effect.repeat(Schedule.spaced(interval)),
          Effect.andThen(Effect.never)
        )

      return WithdrawalSweep.of({ sweep, run })
    })
  )
}
