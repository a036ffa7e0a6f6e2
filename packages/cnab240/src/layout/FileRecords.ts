// The records every CNAB 240 file opens and closes with (FEBRABAN's "Layout Padrão CNAB 240", v10.11): the file
// header (registro 0) and the file trailer (registro 9), and the control fields every record starts with.
import { alphanumeric, type Layout, numeric, reserved } from "../Field.js"

/** The version of the file layout this package writes and reads: FEBRABAN's 10.x files. */
export const fileLayoutVersion = "103"

/** The three fields every record starts with. */
export const control = (batch: string | undefined, recordType: string) => ({
  bankCode: numeric("Código do Banco na Compensação", 1, 3),
  batch: numeric("Lote de Serviço", 4, 7, batch === undefined ? {} : { constant: batch }),
  recordType: numeric("Tipo de Registro", 8, 8, { constant: recordType })
})

/** The account of the company a file is exchanged for, as the file header writes it. */
const companyAccount = {
  companyDocumentType: numeric("Tipo de Inscrição da Empresa", 18, 18),
  companyDocument: numeric("Número de Inscrição da Empresa", 19, 32),
  agreement: alphanumeric("Código do Convênio no Banco", 33, 52),
  agency: numeric("Agência Mantenedora da Conta", 53, 57),
  agencyDigit: alphanumeric("Dígito Verificador da Agência", 58, 58),
  account: numeric("Número da Conta Corrente", 59, 70),
  accountDigit: alphanumeric("Dígito Verificador da Conta", 71, 71),
  agencyAccountDigit: alphanumeric("Dígito Verificador da Ag/Conta", 72, 72),
  companyName: alphanumeric("Nome da Empresa", 73, 102)
}

export const fileHeader = {
  ...control("0000", "0"),
  reserved1: reserved(9, 17),
  ...companyAccount,
  bankName: alphanumeric("Nome do Banco", 103, 132),
  reserved2: reserved(133, 142),
  direction: numeric("Código Remessa / Retorno", 143, 143),
  createdOn: numeric("Data de Geração do Arquivo", 144, 151),
  createdAt: numeric("Hora de Geração do Arquivo", 152, 157),
  sequence: numeric("Número Seqüencial do Arquivo", 158, 163),
  layoutVersion: numeric("Nº da Versão do Layout do Arquivo", 164, 166, { constant: fileLayoutVersion }),
  density: numeric("Densidade de Gravação do Arquivo", 167, 171),
  bankReserved: alphanumeric("Para Uso Reservado do Banco", 172, 191),
  companyReserved: alphanumeric("Para Uso Reservado da Empresa", 192, 211),
  reserved3: reserved(212, 240)
} satisfies Layout

export const fileTrailer = {
  ...control("9999", "9"),
  reserved1: reserved(9, 17),
  batches: numeric("Quantidade de Lotes do Arquivo", 18, 23),
  records: numeric("Quantidade de Registros do Arquivo", 24, 29),
  reconciliationAccounts: numeric("Qtde de Contas p/ Conc. (Lotes)", 30, 35),
  reserved2: reserved(36, 240)
} satisfies Layout

/** `Código Remessa / Retorno`: a file sent to the bank, or one the bank sends back. */
export const directions = { remessa: "1", retorno: "2" } as const
