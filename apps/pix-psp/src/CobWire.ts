// An immediate charge as the API Pix writes it: the client's view (`CobGerada`, `CobCompleta`) with its location and
// its "pix copia e cola", and the payer's view served at the location (`CobPayload`), which the PSP signs.
import * as BrCode from "./BrCode.js"
import { type Charge, type ChargeTerms, revisionOf } from "./Charges.js"
import * as Money from "./Money.js"
import * as PixWire from "./PixWire.js"
import type { Settings } from "./PspSettings.js"
import type { ReceivedPix } from "./ReceivedPix.js"

const iso = (millis: number) => new Date(millis).toISOString()

/** Where a payer's app fetches the charge: `<authority>/qr/v2/<token>`, without scheme as the spec writes it. */
export const locationOf = (charge: Charge, authority: string): string => `${authority}/qr/v2/${charge.location.token}`

/** The token of a location this PSP wrote, if `location` (with or without scheme) is one. */
export const tokenOfLocation = (location: string): string | undefined =>
  /^(?:https:\/\/)?[^/]+\/qr\/v2\/([0-9a-f]{32})$/.exec(location)?.[1]

const termsFields = (terms: ChargeTerms) => ({
  ...(terms.devedor === undefined ? {} : { devedor: terms.devedor }),
  valor: {
    original: Money.fromCents(terms.original),
    ...(terms.modalidadeAlteracao === undefined ? {} : { modalidadeAlteracao: terms.modalidadeAlteracao })
  },
  chave: terms.chave,
  ...(terms.solicitacaoPagador === undefined ? {} : { solicitacaoPagador: terms.solicitacaoPagador }),
  ...(terms.infoAdicionais === undefined ? {} : { infoAdicionais: terms.infoAdicionais })
})

export interface ClientView {
  readonly authority: string
  readonly settings: Pick<Settings, "merchantName" | "merchantCity">
  /** A past revision, for `GET /cob/{txid}?revisao=`; the current one when absent. */
  readonly revisao?: number
  /** The pix received for the charge (`CobCompleta.pix`), for `GET`. */
  readonly pix?: ReadonlyArray<ReceivedPix>
}

/** `CobGerada` (PUT) or, with `pix`, `CobCompleta` (GET). */
export const cob = (charge: Charge, view: ClientView) => {
  const revisao = view.revisao ?? revisionOf(charge)
  const terms = charge.revisions[revisao] ?? charge.revisions[0]
  const location = locationOf(charge, view.authority)
  return {
    calendario: { criacao: iso(charge.criacao), expiracao: terms.expiracao },
    txid: charge.txid,
    revisao,
    loc: { id: charge.location.id, location, tipoCob: "cob", criacao: iso(charge.location.criacao), txid: charge.txid },
    location,
    status: charge.status,
    ...termsFields(terms),
    pixCopiaECola: BrCode.dynamic({
      url: location,
      merchantName: view.settings.merchantName,
      merchantCity: view.settings.merchantCity
    }),
    ...(view.pix === undefined || view.pix.length === 0 ? {} : { pix: view.pix.map(PixWire.pix) })
  }
}

/** `CobPayload`: what the payer's app reads at the location, presented at `now`. */
export const payload = (charge: Charge, now: number) => {
  const terms = charge.revisions[revisionOf(charge)] ?? charge.revisions[0]
  return {
    revisao: revisionOf(charge),
    calendario: { criacao: iso(charge.criacao), apresentacao: iso(now), expiracao: terms.expiracao },
    ...termsFields(terms),
    txid: charge.txid,
    status: charge.status
  }
}
