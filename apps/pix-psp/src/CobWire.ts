// An immediate charge as the API Pix writes it: the client's view (`CobGerada`, `CobCompleta`) with its location and
// its "pix copia e cola", and the payer's view served at the location (`CobPayload`), which the PSP signs. The
// location, the code and the fields of the terms are written alike for a charge with a due date (CobvWire).
import * as BrCode from "./BrCode.js"
import { type Charge, type ChargeTerms, type CobTerms, kindOf, revisionOf } from "./Charges.js"
import * as Money from "./Money.js"
import * as PixWire from "./PixWire.js"
import type { Settings } from "./PspSettings.js"
import type { ReceivedPix } from "./ReceivedPix.js"

export const iso = (millis: number) => new Date(millis).toISOString()

/**
 * Where a payer's app fetches the charge, without scheme as the spec writes it: `<authority>/qr/v2/<token>` for an
 * immediate charge, `<authority>/qr/v2/cobv/<token>` for one with a due date (the spec's `/cobv/{pixUrlAccessToken}`).
 */
export const locationOf = (charge: Charge, authority: string): string =>
  `${authority}/qr/v2/${kindOf(charge) === "cobv" ? "cobv/" : ""}${charge.location.token}`

/** The token of a location this PSP wrote, of either kind, if `location` (with or without scheme) is one. */
export const tokenOfLocation = (location: string): string | undefined =>
  /^(?:https:\/\/)?[^/]+\/qr\/v2\/(?:cobv\/)?([0-9a-f]{32})$/.exec(location)?.[1]

/** `loc`: the charge's location as the client's view writes it. */
export const locOf = (charge: Charge, authority: string) => ({
  id: charge.location.id,
  location: locationOf(charge, authority),
  tipoCob: kindOf(charge),
  criacao: iso(charge.location.criacao),
  txid: charge.txid
})

/** The fields every kind of charge writes alike from its terms. */
export const sharedFields = (terms: ChargeTerms) => ({
  chave: terms.chave,
  ...(terms.solicitacaoPagador === undefined ? {} : { solicitacaoPagador: terms.solicitacaoPagador }),
  ...(terms.infoAdicionais === undefined ? {} : { infoAdicionais: terms.infoAdicionais })
})

const termsFields = (terms: CobTerms) => ({
  ...(terms.devedor === undefined ? {} : { devedor: terms.devedor }),
  valor: {
    original: Money.fromCents(terms.original),
    ...(terms.modalidadeAlteracao === undefined ? {} : { modalidadeAlteracao: terms.modalidadeAlteracao })
  },
  ...sharedFields(terms)
})

export interface ClientView {
  readonly authority: string
  readonly settings: Pick<Settings, "merchantName" | "merchantCity">
  /** A past revision, for `GET /cob/{txid}?revisao=`; the current one when absent. */
  readonly revisao?: number
  /** The pix received for the charge (`CobCompleta.pix`), for `GET`. */
  readonly pix?: ReadonlyArray<ReceivedPix>
}

/** The "pix copia e cola" of a charge: a dynamic code whose location serves it. */
export const pixCopiaECola = (charge: Charge, view: Pick<ClientView, "authority" | "settings">) =>
  BrCode.dynamic({
    url: locationOf(charge, view.authority),
    merchantName: view.settings.merchantName,
    merchantCity: view.settings.merchantCity
  })

/** The pix received for a charge, as `CobCompleta.pix` and `CobVCompleta.pix` write them: absent when none. */
export const pixFields = (view: Pick<ClientView, "pix">) =>
  view.pix === undefined || view.pix.length === 0 ? {} : { pix: view.pix.map(PixWire.pix) }

/** `CobGerada` (PUT) or, with `pix`, `CobCompleta` (GET). */
export const cob = (charge: Charge<CobTerms>, view: ClientView) => {
  const revisao = view.revisao ?? revisionOf(charge)
  const terms = charge.revisions[revisao] ?? charge.revisions[0]
  return {
    calendario: { criacao: iso(charge.criacao), expiracao: terms.expiracao },
    txid: charge.txid,
    revisao,
    loc: locOf(charge, view.authority),
    location: locationOf(charge, view.authority),
    status: charge.status,
    ...termsFields(terms),
    pixCopiaECola: pixCopiaECola(charge, view),
    ...pixFields(view)
  }
}

/** `CobPayload`: what the payer's app reads at the location, presented at `now`. */
export const payload = (charge: Charge<CobTerms>, now: number) => {
  const terms = charge.revisions[revisionOf(charge)] ?? charge.revisions[0]
  return {
    revisao: revisionOf(charge),
    calendario: { criacao: iso(charge.criacao), apresentacao: iso(now), expiracao: terms.expiracao },
    ...termsFields(terms),
    txid: charge.txid,
    status: charge.status
  }
}
