// Charges as a client asks for them in the tests: immediate ones, and ones with a due date.
import { randomBytes } from "node:crypto"
import * as DueDates from "../../src/DueDates.js"

/** A txid of 30 letters and digits, as the client (never the PSP) chooses it. */
export const newTxid = () => `fatura${randomBytes(12).toString("hex")}`

export const chargeRequest = (chave: string, original = "37.00") => ({
  calendario: { expiracao: 3600 },
  devedor: { cpf: "12345678909", nome: "Fulana de Tal" },
  valor: { original },
  chave,
  solicitacaoPagador: "Fatura 1234 da Loja Exemplo"
})

/** Today in São Paulo, and `days` after it: due dates as a client writes them. */
export const saoPauloDay = (days = 0) => DueDates.plusDays(DueDates.saoPauloDate(Date.now()), days)

export const dueChargeRequest = (
  chave: string,
  options: {
    readonly dataDeVencimento?: string
    readonly validadeAposVencimento?: number
    readonly original?: string
  } = {}
) => ({
  calendario: {
    dataDeVencimento: options.dataDeVencimento ?? saoPauloDay(10),
    ...(options.validadeAposVencimento === undefined ? {} : { validadeAposVencimento: options.validadeAposVencimento })
  },
  devedor: { cpf: "12345678909", nome: "Fulana de Tal" },
  valor: { original: options.original ?? "150.00" },
  chave,
  solicitacaoPagador: "Boleto 1234 da Loja Exemplo"
})
