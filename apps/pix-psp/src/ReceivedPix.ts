// The pix this PSP received for its client, and their refunds (`devolucao`), kept in memory. A refund is asked for
// (EM_PROCESSAMENTO) and settled later (DEVOLVIDO or NAO_REALIZADO); what is refunded never passes what was paid.
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import * as Identifiers from "./Identifiers.js"

export type RefundStatus = "EM_PROCESSAMENTO" | "DEVOLVIDO" | "NAO_REALIZADO"

export interface RefundRequest {
  readonly valor: number
  readonly natureza?: "ORIGINAL"
  readonly descricao?: string
}

export interface Refund extends RefundRequest {
  readonly id: string
  readonly rtrId: string
  readonly solicitacao: number
  readonly liquidacao?: number
  readonly status: RefundStatus
  readonly motivo?: string
  /** How it will settle: decided when it is asked for (the simulator's `refuseRefunds` at that moment). */
  readonly settlesAs: "DEVOLVIDO" | "NAO_REALIZADO"
}

export interface ReceivedPix {
  readonly endToEndId: string
  readonly txid: string
  /** Cents. */
  readonly valor: number
  readonly horario: number
  readonly chave: string
  readonly infoPagador?: string
  readonly refunds: ReadonlyArray<Refund>
}

/** What is left to refund: the amount less every refund that is not NAO_REALIZADO. */
export const refundable = (pix: ReceivedPix): number =>
  pix.refunds.reduce((left, refund) => (refund.status === "NAO_REALIZADO" ? left : left - refund.valor), pix.valor)

export class PixNotFound extends Schema.TaggedError<PixNotFound>()("PixNotFound", { endToEndId: Schema.String }) {}

/** A refund the spec's `PixDevolucaoInvalida` refuses, with what was wrong and where. */
export class RefundRefused extends Schema.TaggedError<RefundRefused>()("RefundRefused", {
  reason: Schema.String,
  property: Schema.String
}) {}

const sameRequest = (refund: Refund, request: RefundRequest) =>
  refund.valor === request.valor &&
  (refund.natureza ?? "ORIGINAL") === (request.natureza ?? "ORIGINAL") &&
  refund.descricao === request.descricao

export class ReceivedPixes extends Context.Service<
  ReceivedPixes,
  {
    readonly record: (pix: Omit<ReceivedPix, "endToEndId" | "horario" | "refunds">) => Effect.Effect<ReceivedPix>
    readonly find: (endToEndId: string) => Effect.Effect<Option.Option<ReceivedPix>>
    /** Every pix, in the order received. */
    readonly all: Effect.Effect<ReadonlyArray<ReceivedPix>>
    /** Asks for a refund; the same id asked again with the same request answers the refund already made. */
    readonly requestRefund: (
      endToEndId: string,
      id: string,
      request: RefundRequest,
      settlesAs: Refund["settlesAs"]
    ) => Effect.Effect<
      { readonly pix: ReceivedPix; readonly refund: Refund; readonly isNew: boolean },
      PixNotFound | RefundRefused
    >
    /** Settles a refund EM_PROCESSAMENTO as it was to settle; the pix as it is then. */
    readonly settleRefund: (endToEndId: string, id: string) => Effect.Effect<Option.Option<ReceivedPix>>
  }
>()("@fatura/pix-psp/ReceivedPixes") {
  static readonly layer = Layer.sync(ReceivedPixes, () => {
    const received = new Map<string, ReceivedPix>()
    return ReceivedPixes.of({
      record: (pix) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const recorded: ReceivedPix = { ...pix, endToEndId: Identifiers.endToEndId(now), horario: now, refunds: [] }
          received.set(recorded.endToEndId, recorded)
          return recorded
        }),
      find: (endToEndId) => Effect.sync(() => Option.fromNullishOr(received.get(endToEndId))),
      all: Effect.sync(() => [...received.values()]),
      requestRefund: (endToEndId, id, request, settlesAs) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const pix = received.get(endToEndId)
          if (pix === undefined) return yield* new PixNotFound({ endToEndId })
          const existing = pix.refunds.find((refund) => refund.id === id)
          if (existing !== undefined) {
            if (sameRequest(existing, request)) return { pix, refund: existing, isNew: false }
            return yield* new RefundRefused({
              reason: `O id ${id} já foi utilizado por outra devolução deste pix.`,
              property: "id"
            })
          }
          if (request.valor > refundable(pix)) {
            return yield* new RefundRefused({
              reason: "A devolução, somada às anteriores, excederia o valor do pix originário.",
              property: "devolucao.valor"
            })
          }
          const refund: Refund = {
            ...request,
            id,
            rtrId: Identifiers.returnId(now),
            solicitacao: now,
            status: "EM_PROCESSAMENTO",
            settlesAs
          }
          const updated: ReceivedPix = { ...pix, refunds: [...pix.refunds, refund] }
          received.set(endToEndId, updated)
          return { pix: updated, refund, isNew: true }
        }),
      settleRefund: (endToEndId, id) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const pix = received.get(endToEndId)
          if (pix === undefined) return Option.none()
          const settle = (refund: Refund): Refund =>
            refund.id !== id || refund.status !== "EM_PROCESSAMENTO"
              ? refund
              : refund.settlesAs === "DEVOLVIDO"
                ? { ...refund, status: "DEVOLVIDO", liquidacao: now }
                : { ...refund, status: "NAO_REALIZADO", motivo: "Devolução recusada pelo simulador (refuseRefunds)." }
          const updated: ReceivedPix = { ...pix, refunds: pix.refunds.map(settle) }
          received.set(endToEndId, updated)
          return Option.some(updated)
        })
    })
  })
}
