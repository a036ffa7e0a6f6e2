// The records of a payments batch (service 20, FEBRABAN's "Layout Padrão CNAB 240" v10.11, batch layout 046): a credit
// to an account, by credit in account (forma de lançamento 01), TED (41) or pix (45): its header and trailer, segment
// A (the payment: whom, how much, when; and in a retorno, what became of it) and segment B (the payee's details: for a
// pix, how it is initiated and, in a retorno, the transaction's end-to-end id).
import { alphanumeric, type Layout, numeric, reserved } from "../Field.js"
import { control } from "./FileRecords.js"

export const batchLayoutVersion = "046"

const detail = (segment: string) => ({
  ...control(undefined, "3"),
  sequenceInBatch: numeric("Nº Seqüencial do Registro no Lote", 9, 13),
  segment: alphanumeric("Código de Segmento do Reg. Detalhe", 14, 14, { constant: segment })
})

/** `Códigos das Ocorrências para Retorno`: up to five codes of two characters, in the last ten positions. */
const occurrences = (name: string) => alphanumeric(name, 231, 240)

export const batchHeader = {
  ...control(undefined, "1"),
  operation: alphanumeric("Tipo da Operação", 9, 9, { constant: "C" }),
  service: numeric("Tipo do Serviço", 10, 11, { constant: "20" }),
  paymentForm: numeric("Forma de Lançamento", 12, 13),
  batchLayoutVersion: numeric("Nº da Versão do Layout do Lote", 14, 16, { constant: batchLayoutVersion }),
  reserved1: reserved(17, 17),
  companyDocumentType: numeric("Tipo de Inscrição da Empresa", 18, 18),
  companyDocument: numeric("Número de Inscrição da Empresa", 19, 32),
  agreement: alphanumeric("Código do Convênio no Banco", 33, 52),
  agency: numeric("Agência Mantenedora da Conta", 53, 57),
  agencyDigit: alphanumeric("Dígito Verificador da Agência", 58, 58),
  account: numeric("Número da Conta Corrente", 59, 70),
  accountDigit: alphanumeric("Dígito Verificador da Conta", 71, 71),
  agencyAccountDigit: alphanumeric("Dígito Verificador da Ag/Conta", 72, 72),
  companyName: alphanumeric("Nome da Empresa", 73, 102),
  message: alphanumeric("Mensagem", 103, 142),
  street: alphanumeric("Nome da Rua, Av, Pça, Etc", 143, 172),
  number: numeric("Número do Local", 173, 177),
  complement: alphanumeric("Casa, Apto, Sala, Etc", 178, 192),
  city: alphanumeric("Nome da Cidade", 193, 212),
  zip: numeric("CEP", 213, 217),
  zipSuffix: alphanumeric("Complemento do CEP", 218, 220),
  state: alphanumeric("Sigla do Estado", 221, 222),
  paymentIndicator: numeric("Indicativo da Forma de Pagamento do Serviço", 223, 224),
  reserved2: reserved(225, 230),
  occurrences: occurrences("Códigos das Ocorrências p/ Retorno")
} satisfies Layout

export const segmentA = {
  ...detail("A"),
  movementType: numeric("Tipo de Movimento", 15, 15),
  instruction: numeric("Código da Instrução p/ Movimento", 16, 17),
  clearing: numeric("Código da Câmara Centralizadora", 18, 20),
  payeeBank: numeric("Código do Banco do Favorecido", 21, 23),
  payeeAgency: numeric("Ag. Mantenedora da Cta do Favor.", 24, 28),
  payeeAgencyDigit: alphanumeric("Dígito Verificador da Agência", 29, 29),
  payeeAccount: numeric("Número da Conta Corrente", 30, 41),
  payeeAccountDigit: alphanumeric("Dígito Verificador da Conta", 42, 42),
  payeeAgencyAccountDigit: alphanumeric("Dígito Verificador da AG/Conta", 43, 43),
  payeeName: alphanumeric("Nome do Favorecido", 44, 73),
  companyNumber: alphanumeric("Nº do Docum. Atribuído p/ Empresa", 74, 93, { verbatim: true }),
  paymentDate: numeric("Data do Pagamento", 94, 101),
  currencyType: alphanumeric("Tipo da Moeda", 102, 104),
  currencyAmount: numeric("Quantidade da Moeda", 105, 119, { decimals: 5 }),
  amount: numeric("Valor do Pagamento", 120, 134, { decimals: 2 }),
  bankNumber: alphanumeric("Nº do Docum. Atribuído pelo Banco", 135, 154),
  effectiveDate: numeric("Data Real da Efetivação Pagto", 155, 162),
  effectiveAmount: numeric("Valor Real da Efetivação do Pagto", 163, 177, { decimals: 2 }),
  information: alphanumeric("Outras Informações", 178, 217),
  serviceComplement: alphanumeric("Compl. Tipo Serviço", 218, 219),
  tedPurpose: alphanumeric("Código Finalidade da TED", 220, 224),
  paymentPurpose: alphanumeric("Complemento de Finalidade Pagto.", 225, 226),
  reserved1: reserved(227, 229),
  payeeNotice: numeric("Aviso ao Favorecido", 230, 230),
  occurrences: occurrences("Códigos das Ocorrências para Retorno")
} satisfies Layout

/** Segment B of a TED or a credit in account: the payee's document and address. */
export const segmentB = {
  ...detail("B"),
  reserved1: reserved(15, 17),
  payeeDocumentType: numeric("Tipo de Inscrição do Favorecido", 18, 18),
  payeeDocument: numeric("Nº de Inscrição do Favorecido", 19, 32),
  street: alphanumeric("Nome da Rua, Av, Pça, Etc", 33, 62),
  number: numeric("Número do Local", 63, 67),
  complement: alphanumeric("Casa, Apto, Etc", 68, 82),
  district: alphanumeric("Bairro", 83, 97),
  city: alphanumeric("Nome da Cidade", 98, 117),
  zip: numeric("CEP", 118, 122),
  zipSuffix: alphanumeric("Complemento do CEP", 123, 125),
  state: alphanumeric("Sigla do Estado", 126, 127),
  dueDate: numeric("Data do Vencimento (Nominal)", 128, 135),
  documentAmount: numeric("Valor do Documento (Nominal)", 136, 150, { decimals: 2 }),
  rebate: numeric("Valor do Abatimento", 151, 165, { decimals: 2 }),
  discount: numeric("Valor do Desconto", 166, 180, { decimals: 2 }),
  interest: numeric("Valor da Mora", 181, 195, { decimals: 2 }),
  fine: numeric("Valor da Multa", 196, 210, { decimals: 2 }),
  payeeCode: alphanumeric("Código/Documento do Favorecido", 211, 225),
  payeeNotice: numeric("Aviso ao Favorecido", 226, 226),
  siapeUnit: numeric("Código UG Centralizadora", 227, 232),
  payeeIspb: numeric("Código ISPB", 233, 240)
} satisfies Layout

/**
 * Segment B of a pix: how the transfer is initiated (`Forma de Iniciação`), the payee's document, and the key when
 * one is used. A retorno carries the pix's end-to-end id where a remessa may carry a charge's txid.
 */
export const segmentBPix = {
  ...detail("B"),
  initiation: alphanumeric("Forma de Iniciação", 15, 17),
  payeeDocumentType: numeric("Tipo de Inscrição do Favorecido", 18, 18),
  payeeDocument: numeric("Nº de Inscrição do Favorecido", 19, 32),
  transactionId: alphanumeric("TX ID / Identificação da Transação (End to End)", 33, 67, { verbatim: true }),
  payerMessage: alphanumeric("Informação entre Usuários", 68, 127),
  pixKey: alphanumeric("Chave Pix", 128, 226, { verbatim: true }),
  reserved1: reserved(227, 232),
  payeeIspb: numeric("Código ISPB", 233, 240)
} satisfies Layout

export const batchTrailer = {
  ...control(undefined, "5"),
  reserved1: reserved(9, 17),
  records: numeric("Quantidade de Registros do Lote", 18, 23),
  total: numeric("Somatória dos Valores", 24, 41, { decimals: 2 }),
  currencyTotal: numeric("Somatória de Quantidade de Moedas", 42, 59, { decimals: 5 }),
  debitNotice: numeric("Número Aviso Débito", 60, 65),
  reserved2: reserved(66, 230),
  occurrences: occurrences("Códigos das Ocorrências para Retorno")
} satisfies Layout

/** `Forma de Lançamento` of the payments Fatura makes. */
export const paymentForms = { creditInAccount: "01", ted: "41", pix: "45" } as const

/** `Código da Câmara Centralizadora`: none for a credit at the same bank, STR for a TED, the SPI for a pix. */
export const clearings = { creditInAccount: "000", ted: "018", pix: "009" } as const

/** `Forma de Iniciação` of a pix: by a key of each type, or by the account's details (agency and account). */
export const pixInitiations = {
  phone: "01",
  email: "02",
  document: "03",
  randomKey: "04",
  accountDetails: "05"
} as const
