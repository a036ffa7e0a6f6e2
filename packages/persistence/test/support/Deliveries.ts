// What the postback worker's contract is exercised with: claiming due deliveries, an attempt's record, a delivery
// as the events API lists it.
import { type Attempt, type ClaimedDelivery, PostbackRepository } from "@fatura/application"
import { type Company, Timestamp } from "@fatura/domain"
import { Effect } from "effect"

export const claim = (worker: string, now: Timestamp.Timestamp, leaseSeconds: number, limit = 10) =>
  Effect.gen(function* () {
    const postbacks = yield* PostbackRepository
    return yield* postbacks.claimDue({ now, leaseUntil: Timestamp.plusSeconds(now, leaseSeconds), worker, limit })
  })

export const attempted = (
  delivery: ClaimedDelivery,
  worker: string,
  finishedAt: Timestamp.Timestamp,
  outcome: Attempt["outcome"],
  statusCode: number | null
): Attempt => ({
  deliveryId: delivery.id,
  attempt: delivery.attempt,
  worker,
  startedAt: finishedAt,
  finishedAt,
  statusCode,
  error: outcome._tag === "Succeeded" ? null : `answered ${statusCode}`,
  durationMs: 12,
  outcome
})

export const deliveryOf = (company: Company.Company, eventId: string) =>
  Effect.gen(function* () {
    const postbacks = yield* PostbackRepository
    const [delivery] = yield* postbacks.listDeliveries(company.id, { eventId })
    return delivery!
  })
