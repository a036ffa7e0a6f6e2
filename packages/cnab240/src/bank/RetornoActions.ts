// What a file of the bank's does, inside the transaction that records it read: a cobrança retorno registers, rejects,
// pays or writes off boletos; a payments retorno settles withdrawals' attempts — paid, accepted, refused (a pix the
// receiving institution cannot take is tried again as a TED), returned; a refusal report gives back to the queues
// what the refused remessa carried. An answer that would take an attempt backwards is one heard before: ignored.
import {
  BankFileRepository,
  type BankPayout,
  BankPayoutRepository,
  BoletoRegistrationRepository,
  type BoletoRegistrations,
  type PayoutChange
} from "@fatura/application"
import { BusinessCalendar, Cents } from "@fatura/domain"
import { Effect, Option, Result, Schema } from "effect"
import type * as CnabFile from "../CnabFile.js"
import type * as Cobranca from "../Cobranca.js"
import { describeOccurrences, describeReasons, isPixRefusal } from "../Occurrences.js"
import type * as Pagamentos from "../Pagamentos.js"
import { nowTimestamp } from "./ExchangeValues.js"

const isCalendarDate = Schema.is(BusinessCalendar.CalendarDate)

/** The bank's date, when it is one. */
const calendarDate = (date: string | null) => (date !== null && isCalendarDate(date) ? date : null)

const unreadable = (name: string, malformed: CnabFile.MalformedFile) =>
  Effect.logError("a file of the bank's cannot be read: kept, and acted on in no part", {
    file: name,
    problem: malformed.message
  })

export const actOnCobranca = (
  name: string,
  read: Result.Result<Cobranca.Retorno, CnabFile.MalformedFile>,
  boletos: BoletoRegistrations["Service"]
) =>
  Effect.gen(function* () {
    if (Result.isFailure(read)) return yield* unreadable(name, read.failure)
    for (const occurrence of read.success.occurrences) {
      const { ourNumber } = occurrence
      switch (occurrence.movement) {
        case "02":
          yield* boletos.registered(ourNumber)
          break
        case "03":
          yield* boletos.rejected(ourNumber, describeReasons(occurrence.reasons))
          break
        case "06":
          yield* boletos.paidAtBank(ourNumber, Cents.make(occurrence.paid), calendarDate(occurrence.creditedOn))
          break
        case "09":
          yield* boletos.writtenOff(ourNumber)
          break
        default:
          yield* Effect.logInfo("a boleto occurrence Fatura does not act on", {
            file: name,
            ourNumber,
            movement: occurrence.movement
          })
      }
    }
  })

/** Where an attempt may go from where it is: forward only, so that an answer heard again changes nothing. */
const next: Readonly<Record<BankPayout["status"], ReadonlyArray<BankPayout["status"]>>> = {
  queued: ["accepted", "paid", "failed"],
  accepted: ["paid", "failed"],
  paid: ["returned"],
  failed: [],
  returned: []
}

const changeOf = (outcome: Pagamentos.Outcome): PayoutChange => {
  const codes = outcome.occurrences
  if (codes.includes("00")) {
    return { status: "paid", occurrences: codes, endToEndId: outcome.endToEndId, paidOn: outcome.effectiveDate }
  }
  if (codes.includes("DV")) return { status: "returned", occurrences: codes }
  if (codes.length > 0 && codes.every((code) => code === "BD")) return { status: "accepted", occurrences: codes }
  return { status: "failed", occurrences: codes }
}

export const actOnPagamentos = (name: string, read: Result.Result<Pagamentos.Retorno, CnabFile.MalformedFile>) =>
  Effect.gen(function* () {
    if (Result.isFailure(read)) return yield* unreadable(name, read.failure)
    const payouts = yield* BankPayoutRepository
    for (const outcome of read.success.outcomes) {
      const found = yield* payouts.findByReference(outcome.reference)
      if (Option.isNone(found)) {
        yield* Effect.logWarning("the bank answered for a payment Fatura never asked for", {
          file: name,
          reference: outcome.reference
        })
        continue
      }
      const payout = found.value
      const change = changeOf(outcome)
      if (!next[payout.status].includes(change.status)) continue
      const at = yield* nowTimestamp
      yield* payouts.settle(payout.reference, change, at)
      if (change.status === "failed" && payout.form === "pix" && change.occurrences.some(isPixRefusal)) {
        yield* Effect.logInfo("a pix the receiving institution cannot take: tried again as a TED", {
          reference: payout.reference,
          withdrawalId: payout.withdrawalId,
          occurrences: describeOccurrences(change.occurrences)
        })
        yield* payouts.retry(payout.withdrawalId, "ted", at)
      }
    }
  })

/** The bank refused a remessa whole: it is marked so, and what it carried waits for the next one. */
export const actOnRefusal = (name: string, report: string) =>
  Effect.gen(function* () {
    const remessa = report.split(/\r?\n/)[0]?.split(";")[3]?.trim() ?? ""
    const at = yield* nowTimestamp
    yield* (yield* BankFileRepository).markRefused(remessa, at)
    const registrations = yield* (yield* BoletoRegistrationRepository).release(remessa, at)
    const payments = yield* (yield* BankPayoutRepository).release(remessa, at)
    yield* Effect.logError("the bank refused a remessa whole: what it carried goes in the next one", {
      file: name,
      remessa,
      registrations,
      payments,
      report
    })
  })
