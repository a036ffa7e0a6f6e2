// A received pix and its refunds as the API Pix writes them (schemas `Pix` and `Devolucao`): in the answers of
// `GET /pix…`, in a charge's `pix` list, and in webhook notifications.
import * as Money from "./Money.js"
import type { ReceivedPix, Refund } from "./ReceivedPix.js"

const iso = (millis: number) => new Date(millis).toISOString()

export const refund = (refund: Refund) => ({
  id: refund.id,
  rtrId: refund.rtrId,
  valor: Money.fromCents(refund.valor),
  natureza: refund.natureza ?? "ORIGINAL",
  ...(refund.descricao === undefined ? {} : { descricao: refund.descricao }),
  horario: {
    solicitacao: iso(refund.solicitacao),
    ...(refund.liquidacao === undefined ? {} : { liquidacao: iso(refund.liquidacao) })
  },
  status: refund.status,
  ...(refund.motivo === undefined ? {} : { motivo: refund.motivo })
})

export const pix = (pix: ReceivedPix) => ({
  endToEndId: pix.endToEndId,
  txid: pix.txid,
  valor: Money.fromCents(pix.valor),
  componentesValor: { original: { valor: Money.fromCents(pix.valor) } },
  chave: pix.chave,
  horario: iso(pix.horario),
  ...(pix.infoPagador === undefined ? {} : { infoPagador: pix.infoPagador }),
  ...(pix.refunds.length === 0 ? {} : { devolucoes: pix.refunds.map(refund) })
})
