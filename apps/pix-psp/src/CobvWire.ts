// A charge with a due date as the API Pix writes it: the client's view (`CobVGerada`, `CobVCompleta`) with its location
// and its "pix copia e cola", and the payer's view served at the location (`CobVPayload`), which the PSP signs. Both
// name the client as `recebedor`, from the PSP's settings. This PSP takes no fine, interest, rebate or discount, so a
// payload's `valor.final` is always the original amount.
import { type Charge, type CobvTerms, revisionOf } from "./Charges.js"
import * as CobWire from "./CobWire.js"
import * as Money from "./Money.js"
import type { Settings } from "./PspSettings.js"

/** The settings a charge with a due date is written with: its code's merchant, and the client as `recebedor`. */
export type MerchantSettings = Pick<
  Settings,
  "merchantName" | "merchantCity" | "merchantCnpj" | "merchantStreet" | "merchantState" | "merchantPostalCode"
>

export interface ClientView extends Omit<CobWire.ClientView, "settings"> {
  readonly settings: MerchantSettings
}

/** `recebedor` (`DadosRecebedor`): the PSP's client, a company, with its address. */
const recebedor = (settings: MerchantSettings) => ({
  cnpj: settings.merchantCnpj,
  nome: settings.merchantName,
  logradouro: settings.merchantStreet,
  cidade: settings.merchantCity,
  uf: settings.merchantState,
  cep: settings.merchantPostalCode
})

const calendario = (charge: Charge<CobvTerms>, terms: CobvTerms) => ({
  criacao: CobWire.iso(charge.criacao),
  dataDeVencimento: terms.dataDeVencimento,
  validadeAposVencimento: terms.validadeAposVencimento
})

/** `CobVGerada` (PUT, PATCH) or, with `pix`, `CobVCompleta` (GET). */
export const cobv = (charge: Charge<CobvTerms>, view: ClientView) => {
  const revisao = view.revisao ?? revisionOf(charge)
  const terms = charge.revisions[revisao] ?? charge.revisions[0]
  return {
    calendario: calendario(charge, terms),
    txid: charge.txid,
    revisao,
    loc: CobWire.locOf(charge, view.authority),
    location: CobWire.locationOf(charge, view.authority),
    status: charge.status,
    devedor: terms.devedor,
    recebedor: recebedor(view.settings),
    valor: { original: Money.fromCents(terms.original) },
    ...CobWire.sharedFields(terms),
    pixCopiaECola: CobWire.pixCopiaECola(charge, view),
    ...CobWire.pixFields(view)
  }
}

/**
 * `CobVPayload`: what the payer's app reads at the location, presented at `now`. The debtor is named by document and
 * name alone: a location is open to whoever holds its URL, and the payer's app needs no more.
 */
export const payload = (charge: Charge<CobvTerms>, now: number, settings: MerchantSettings) => {
  const terms = charge.revisions[revisionOf(charge)] ?? charge.revisions[0]
  const { cpf, cnpj, nome } = terms.devedor
  const amount = Money.fromCents(terms.original)
  return {
    revisao: revisionOf(charge),
    calendario: { ...calendario(charge, terms), apresentacao: CobWire.iso(now) },
    devedor: { ...(cpf === undefined ? {} : { cpf }), ...(cnpj === undefined ? {} : { cnpj }), nome },
    recebedor: recebedor(settings),
    valor: { original: amount, final: amount },
    ...CobWire.sharedFields(terms),
    txid: charge.txid,
    status: charge.status
  }
}
