// Charges as a client asks for them in the tests.
import { randomBytes } from "node:crypto"

/** A txid of 30 letters and digits, as the client (never the PSP) chooses it. */
export const newTxid = () => `fatura${randomBytes(12).toString("hex")}`

export const chargeRequest = (chave: string, original = "37.00") => ({
  calendario: { expiracao: 3600 },
  devedor: { cpf: "12345678909", nome: "Fulana de Tal" },
  valor: { original },
  chave,
  solicitacaoPagador: "Fatura 1234 da Loja Exemplo"
})
