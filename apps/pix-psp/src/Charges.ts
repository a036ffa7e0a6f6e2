// The charges, kept in memory: immediate ones (`cob`) and ones with a due date (`cobv`), under one txid each — a txid
// that names a charge of one kind is refused to the other. Each keeps its revisions, its status and its location. A
// PUT of a txid that exists is answered with the charge as it is when it asks for the same terms (a client's retry),
// revises it while it is ATIVA when the terms differ (the spec's PUT creates or alters), and is refused once it is not
// ATIVA; a removal (PATCH) takes an ATIVA charge out of payment.
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import * as DueDates from "./DueDates.js"
import * as Identifiers from "./Identifiers.js"

export type ChargeStatus = "ATIVA" | "CONCLUIDA" | "REMOVIDA_PELO_USUARIO_RECEBEDOR" | "REMOVIDA_PELO_PSP"

export interface Debtor {
  readonly cpf?: string
  readonly cnpj?: string
  readonly nome: string
}

/** A debtor of a charge with a due date, who may also be given an address and an email (`DadosDevedor`). */
export interface DueDebtor extends Debtor {
  readonly email?: string
  readonly logradouro?: string
  readonly cidade?: string
  readonly uf?: string
  readonly cep?: string
}

interface SharedTerms {
  /** Cents. */
  readonly original: number
  readonly chave: string
  readonly solicitacaoPagador?: string
  readonly infoAdicionais?: ReadonlyArray<{ readonly nome: string; readonly valor: string }>
}

/** What a client asks of an immediate charge, normalized: the amount in cents, the expiry with its default. */
export interface CobTerms extends SharedTerms {
  readonly kind: "cob"
  readonly expiracao: number
  readonly devedor?: Debtor
  readonly modalidadeAlteracao?: 0 | 1
}

/** What a client asks of a charge with a due date, normalized: the days it stays payable after it, with its default. */
export interface CobvTerms extends SharedTerms {
  readonly kind: "cobv"
  /** `YYYY-MM-DD`. */
  readonly dataDeVencimento: string
  readonly validadeAposVencimento: number
  readonly devedor: DueDebtor
}

export type ChargeTerms = CobTerms | CobvTerms
export type ChargeKind = ChargeTerms["kind"]

export interface ChargeLocation {
  readonly id: number
  /** The secret last segment of the location URL. */
  readonly token: string
  readonly criacao: number
}

export interface Charge<T extends ChargeTerms = ChargeTerms> {
  readonly txid: string
  readonly criacao: number
  readonly status: ChargeStatus
  /** The terms of every revision, oldest first: `revisao` is an index in it. */
  readonly revisions: readonly [T, ...Array<T>]
  readonly location: ChargeLocation
}

export const revisionOf = (charge: Charge): number => charge.revisions.length - 1
export const termsOf = <T extends ChargeTerms>(charge: Charge<T>): T =>
  charge.revisions[charge.revisions.length - 1] ?? charge.revisions[0]

export const kindOf = (charge: Charge): ChargeKind => charge.revisions[0].kind

/** Whether `charge` is of `kind`, its terms typed accordingly. */
export const isOfKind = <K extends ChargeKind>(
  charge: Charge,
  kind: K
): charge is Charge<Extract<ChargeTerms, { readonly kind: K }>> => kindOf(charge) === kind

/** The last day (São Paulo) a charge with a due date may be paid: its due date and the days of validity after it. */
export const lastPayableDay = (terms: CobvTerms): string =>
  DueDates.plusDays(terms.dataDeVencimento, terms.validadeAposVencimento)

/**
 * Whether a charge can still be paid: ATIVA, and not past `criacao + expiracao` for an immediate one, nor past its last
 * payable day, in São Paulo, for one with a due date.
 */
export const isPayable = (charge: Charge, now: number): boolean => {
  if (charge.status !== "ATIVA") return false
  const terms = termsOf(charge)
  return terms.kind === "cob"
    ? now < charge.criacao + terms.expiracao * 1000
    : DueDates.saoPauloDate(now) <= lastPayableDay(terms)
}

export type PutOutcome = "created" | "unchanged" | "revised"

export class ChargeNotActive extends Schema.TaggedError<ChargeNotActive>()("ChargeNotActive", {
  txid: Schema.String,
  status: Schema.String
}) {}

/** The txid names a charge of the other kind already: one txid, one charge. */
export class TxidTaken extends Schema.TaggedError<TxidTaken>()("TxidTaken", {
  txid: Schema.String,
  kind: Schema.Literals(["cob", "cobv"])
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
    readonly put: <T extends ChargeTerms>(
      txid: string,
      terms: T
    ) => Effect.Effect<{ readonly charge: Charge<T>; readonly outcome: PutOutcome }, ChargeNotActive | TxidTaken>
    readonly find: (txid: string) => Effect.Effect<Option.Option<Charge>>
    readonly findByLocation: (token: string) => Effect.Effect<Option.Option<Charge>>
    readonly conclude: (txid: string) => Effect.Effect<void>
    /**
     * Removes an ATIVA charge of `kind` (REMOVIDA_PELO_USUARIO_RECEBEDOR), as a revision of it: `revisao` + 1, the
     * same terms. None for a txid without a charge of that kind.
     */
    readonly remove: <K extends ChargeKind>(
      txid: string,
      kind: K
    ) => Effect.Effect<Option.Option<Charge<Extract<ChargeTerms, { readonly kind: K }>>>, ChargeNotActive>
  }
>()("@fatura/pix-psp/Charges") {
  static readonly layer = Layer.sync(Charges, () => {
    const charges = new Map<string, Charge>()
    const byLocation = new Map<string, string>()
    let lastLocationId = 0
    return Charges.of({
      put: <T extends ChargeTerms>(txid: string, terms: T) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const existing = charges.get(txid)
          if (existing === undefined) {
            lastLocationId += 1
            const location = { id: lastLocationId, token: Identifiers.locationToken(), criacao: now }
            const charge: Charge<T> = { txid, criacao: now, status: "ATIVA", revisions: [terms], location }
            charges.set(txid, charge)
            byLocation.set(location.token, txid)
            return { charge, outcome: "created" as PutOutcome }
          }
          if (kindOf(existing) !== terms.kind) return yield* new TxidTaken({ txid, kind: kindOf(existing) })
          // Of the same kind as `terms`, as just checked.
          const same = existing as Charge<T>
          if (canonical(termsOf(same)) === canonical(terms)) return { charge: same, outcome: "unchanged" as PutOutcome }
          if (same.status !== "ATIVA") return yield* new ChargeNotActive({ txid, status: same.status })
          const revised: Charge<T> = { ...same, revisions: [...same.revisions, terms] }
          charges.set(txid, revised)
          return { charge: revised, outcome: "revised" as PutOutcome }
        }),
      find: (txid) => Effect.sync(() => Option.fromNullishOr(charges.get(txid))),
      findByLocation: (token) => Effect.sync(() => Option.fromNullishOr(charges.get(byLocation.get(token) ?? ""))),
      conclude: (txid) =>
        Effect.sync(() => {
          const charge = charges.get(txid)
          if (charge !== undefined) charges.set(txid, { ...charge, status: "CONCLUIDA" })
        }),
      remove: <K extends ChargeKind>(txid: string, kind: K) =>
        Effect.gen(function* () {
          const charge = charges.get(txid)
          if (charge === undefined || !isOfKind(charge, kind)) return Option.none()
          if (charge.status !== "ATIVA") return yield* new ChargeNotActive({ txid, status: charge.status })
          const removed: Charge<Extract<ChargeTerms, { readonly kind: K }>> = {
            ...charge,
            status: "REMOVIDA_PELO_USUARIO_RECEBEDOR",
            revisions: [...charge.revisions, termsOf(charge)]
          }
          charges.set(txid, removed)
          return Option.some(removed)
        })
    })
  })
}
