// Immediate charges (`cob`), kept in memory: each with its revisions, its status and its location. A PUT of a txid
// that exists is answered with the charge as it is when it asks for the same terms (a client's retry), revises it
// while it is ATIVA when the terms differ (the spec's PUT creates or alters), and is refused once it is not ATIVA.
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import * as Identifiers from "./Identifiers.js"

export type ChargeStatus = "ATIVA" | "CONCLUIDA" | "REMOVIDA_PELO_USUARIO_RECEBEDOR" | "REMOVIDA_PELO_PSP"

export interface Debtor {
  readonly cpf?: string
  readonly cnpj?: string
  readonly nome: string
}

/** What a client asks of a charge, normalized: the amount in cents, the expiry with its default. */
export interface ChargeTerms {
  readonly expiracao: number
  readonly devedor?: Debtor
  readonly original: number
  readonly modalidadeAlteracao?: 0 | 1
  readonly chave: string
  readonly solicitacaoPagador?: string
  readonly infoAdicionais?: ReadonlyArray<{ readonly nome: string; readonly valor: string }>
}

export interface ChargeLocation {
  readonly id: number
  /** The secret last segment of the location URL. */
  readonly token: string
  readonly criacao: number
}

export interface Charge {
  readonly txid: string
  readonly criacao: number
  readonly status: ChargeStatus
  /** The terms of every revision, oldest first: `revisao` is an index in it. */
  readonly revisions: readonly [ChargeTerms, ...Array<ChargeTerms>]
  readonly location: ChargeLocation
}

export const revisionOf = (charge: Charge): number => charge.revisions.length - 1
export const termsOf = (charge: Charge): ChargeTerms =>
  charge.revisions[charge.revisions.length - 1] ?? charge.revisions[0]

/** Whether a charge can still be paid: ATIVA and not past `criacao + expiracao`. */
export const isPayable = (charge: Charge, now: number): boolean =>
  charge.status === "ATIVA" && now < charge.criacao + termsOf(charge).expiracao * 1000

export type PutOutcome = "created" | "unchanged" | "revised"

export class ChargeNotActive extends Schema.TaggedError<ChargeNotActive>()("ChargeNotActive", {
  txid: Schema.String,
  status: Schema.String
}) {}

/** Canonical JSON (keys sorted) of the terms, so that two requests asking the same compare equal. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner
  )

export class Charges extends Context.Service<
  Charges,
  {
    readonly put: (
      txid: string,
      terms: ChargeTerms
    ) => Effect.Effect<{ readonly charge: Charge; readonly outcome: PutOutcome }, ChargeNotActive>
    readonly find: (txid: string) => Effect.Effect<Option.Option<Charge>>
    readonly findByLocation: (token: string) => Effect.Effect<Option.Option<Charge>>
    readonly conclude: (txid: string) => Effect.Effect<void>
  }
>()("@fatura/pix-psp/Charges") {
  static readonly layer = Layer.sync(Charges, () => {
    const charges = new Map<string, Charge>()
    const byLocation = new Map<string, string>()
    let lastLocationId = 0
    return Charges.of({
      put: (txid, terms) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const existing = charges.get(txid)
          if (existing === undefined) {
            lastLocationId += 1
            const location = { id: lastLocationId, token: Identifiers.locationToken(), criacao: now }
            const charge: Charge = { txid, criacao: now, status: "ATIVA", revisions: [terms], location }
            charges.set(txid, charge)
            byLocation.set(location.token, txid)
            return { charge, outcome: "created" as PutOutcome }
          }
          if (canonical(termsOf(existing)) === canonical(terms))
            return { charge: existing, outcome: "unchanged" as PutOutcome }
          if (existing.status !== "ATIVA") return yield* new ChargeNotActive({ txid, status: existing.status })
          const revised: Charge = { ...existing, revisions: [...existing.revisions, terms] }
          charges.set(txid, revised)
          return { charge: revised, outcome: "revised" as PutOutcome }
        }),
      find: (txid) => Effect.sync(() => Option.fromNullishOr(charges.get(txid))),
      findByLocation: (token) => Effect.sync(() => Option.fromNullishOr(charges.get(byLocation.get(token) ?? ""))),
      conclude: (txid) =>
        Effect.sync(() => {
          const charge = charges.get(txid)
          if (charge !== undefined) charges.set(txid, { ...charge, status: "CONCLUIDA" })
        })
    })
  })
}
