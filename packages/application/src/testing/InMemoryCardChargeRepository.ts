// The CardChargeRepository port in memory: card charges with their state, and how a late one was given back.
import type { Timestamp } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import { type CardCharge, CardChargeRepository } from "../cards/CardChargeRepository.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { asJson, type CardChargeRow, put } from "./InMemoryTables.js"

const toCardCharge = ({ settledAt: _, reversedAt: __, ...charge }: CardChargeRow): CardCharge => charge

const oldestFirst = (a: Timestamp.Timestamp, b: Timestamp.Timestamp) => (a < b ? -1 : a > b ? 1 : 0)

export const layer = Layer.effect(
  CardChargeRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    return CardChargeRepository.of({
      recordCardCharge: (charge) =>
        database.statement(
          Effect.gen(function* () {
            const clash = yield* database.read((tables) =>
              tables.cardCharges.has(charge.reference)
                ? "card_charges_pkey"
                : [...tables.cardCharges.values()].some(
                      (other) =>
                        charge.invoiceId !== null && other.invoiceId === charge.invoiceId && other.state === "requested"
                    )
                  ? "card_charges_in_flight"
                  : undefined
            )
            if (clash !== undefined) return yield* violated(clash, "the charge cannot be recorded")
            yield* database.write(
              put("cardCharges", charge.reference, {
                ...asJson(charge),
                state: "requested",
                settledAt: null,
                reversal: null,
                reversedAt: null
              })
            )
          })
        ),

      chargeInFlight: (invoiceId) =>
        database.read((tables) =>
          Option.map(
            Option.fromNullishOr(
              [...tables.cardCharges.values()].find(
                (charge) => charge.invoiceId === invoiceId && charge.state === "requested"
              )
            ),
            toCardCharge
          )
        ),

      findCardCharge: (reference) =>
        database.read((tables) => Option.map(Option.fromNullishOr(tables.cardCharges.get(reference)), toCardCharge)),

      lockCardCharge: (reference) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`card_charges ${reference}`)
            return yield* database.read((tables) =>
              Option.map(Option.fromNullishOr(tables.cardCharges.get(reference)), toCardCharge)
            )
          })
        ),

      closeCardCharge: (reference, state, invoiceId, at) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`card_charges ${reference}`)
            const row = (yield* database.read((tables) => tables.cardCharges.get(reference)))!
            yield* database.write(
              put("cardCharges", reference, {
                ...row,
                state,
                invoiceId: invoiceId ?? row.invoiceId,
                draft: null,
                settledAt: at
              })
            )
          })
        ),

      closeLateCardCharge: (reference, approved, at) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`card_charges ${reference}`)
            const row = (yield* database.read((tables) => tables.cardCharges.get(reference)))!
            yield* database.write(
              put("cardCharges", reference, {
                ...row,
                state: "late",
                draft: null,
                settledAt: at,
                reversal: approved ? "requested" : null
              })
            )
          })
        ),

      closeCardChargeReversal: (reference, reversal, at) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`card_charges ${reference}`)
            const row = yield* database.read((tables) => tables.cardCharges.get(reference))
            if (row?.reversal !== "requested") return
            yield* database.write(put("cardCharges", reference, { ...row, reversal, reversedAt: at }))
          })
        ),

      staleCardChargeReversals: (closedBefore, limit) =>
        database.read((tables) =>
          [...tables.cardCharges.values()]
            .filter(
              (charge) =>
                charge.reversal === "requested" && charge.settledAt !== null && charge.settledAt < closedBefore
            )
            // Filtered above: every one was closed.
            .sort((a, b) => oldestFirst(a.settledAt!, b.settledAt!))
            .slice(0, limit)
            .map(toCardCharge)
        ),

      staleCardCharges: (requestedBefore, limit) =>
        database.read((tables) =>
          [...tables.cardCharges.values()]
            .filter((charge) => charge.state === "requested" && charge.requestedAt < requestedBefore)
            .sort((a, b) => oldestFirst(a.requestedAt, b.requestedAt))
            .slice(0, limit)
            .map(toCardCharge)
        )
    })
  })
)
