// The records of a cobrança batch (service 01, FEBRABAN's "Layout Padrão CNAB 240" v10.11, batch layout 060): its
// header and trailer; segments P, Q and R, which register a boleto (or ask for something of one) in a remessa; and
// segments T and U, which say in a retorno what became of it.
import { alphanumeric, type Layout, numeric, reserved } from "../Field.js"
import { control } from "./FileRecords.js"

export const batchLayoutVersion = "060"

/** The fields every detail record (registro 3) starts with, up to its segment's letter. */
const detail = (segment: string) => ({
  ...control(undefined, "3"),
  sequenceInBatch: numeric("Nº Seqüencial do Registro no Lote", 9, 13),
  segment: alphanumeric("Cód. Segmento do Registro Detalhe", 14, 14, { constant: segment }),
  reserved1: reserved(15, 15)
})

/** The beneficiary's account at the bank, as segments P and T write it. */
const beneficiaryAccount = {
  agency: numeric("Agência Mantenedora da Conta", 18, 22),
  agencyDigit: alphanumeric("Dígito Verificador da Agência", 23, 23),
  account: numeric("Número da Conta Corrente", 24, 35),
  accountDigit: alphanumeric("Dígito Verificador da Conta", 36, 36),
  agencyAccountDigit: alphanumeric("Dígito Verificador da Ag/Conta", 37, 37),
  ourNumber: alphanumeric("Identificação do Título no Banco", 38, 57)
}

export const batchHeader = {
  ...control(undefined, "1"),
  operation: alphanumeric("Tipo de Operação", 9, 9),
  service: numeric("Tipo de Serviço", 10, 11, { constant: "01" }),
  reserved1: reserved(12, 13),
  batchLayoutVersion: numeric("Nº da Versão do Layout do Lote", 14, 16, { constant: batchLayoutVersion }),
  reserved2: reserved(17, 17),
  companyDocumentType: numeric("Tipo de Inscrição da Empresa", 18, 18),
  companyDocument: numeric("Nº de Inscrição da Empresa", 19, 33),
  agreement: alphanumeric("Código do Convênio no Banco", 34, 53),
  agency: numeric("Agência Mantenedora da Conta", 54, 58),
  agencyDigit: alphanumeric("Dígito Verificador da Agência", 59, 59),
  account: numeric("Número da Conta Corrente", 60, 71),
  accountDigit: alphanumeric("Dígito Verificador da Conta", 72, 72),
  agencyAccountDigit: alphanumeric("Dígito Verificador da Ag/Conta", 73, 73),
  companyName: alphanumeric("Nome da Empresa", 74, 103),
  message1: alphanumeric("Mensagem 1", 104, 143),
  message2: alphanumeric("Mensagem 2", 144, 183),
  fileSequence: numeric("Número Remessa/Retorno", 184, 191),
  recordedOn: numeric("Data de Gravação Remessa/Retorno", 192, 199),
  creditedOn: numeric("Data do Crédito", 200, 207),
  reserved3: reserved(208, 240)
} satisfies Layout

export const segmentP = {
  ...detail("P"),
  movement: numeric("Código de Movimento Remessa", 16, 17),
  ...beneficiaryAccount,
  wallet: numeric("Código da Carteira", 58, 58),
  registration: numeric("Forma de Cadastr. do Título no Banco", 59, 59),
  documentKind: alphanumeric("Tipo de Documento", 60, 60),
  issuance: numeric("Identificação da Emissão do Boleto", 61, 61),
  distribution: alphanumeric("Identificação da Distribuição", 62, 62),
  documentNumber: alphanumeric("Número do Documento de Cobrança", 63, 77),
  dueDate: numeric("Data de Vencimento do Título", 78, 85),
  amount: numeric("Valor Nominal do Título", 86, 100, { decimals: 2 }),
  collectingAgency: numeric("Agência Encarregada da Cobrança", 101, 105),
  collectingAgencyDigit: alphanumeric("Dígito Verificador da Agência", 106, 106),
  kind: numeric("Espécie do Título", 107, 108),
  accepted: alphanumeric("Identific. de Título Aceito/Não Aceito", 109, 109),
  issuedOn: numeric("Data da Emissão do Título", 110, 117),
  interestCode: numeric("Código do Juros de Mora", 118, 118),
  interestFrom: numeric("Data do Juros de Mora", 119, 126),
  interest: numeric("Juros de Mora por Dia/Taxa", 127, 141, { decimals: 2 }),
  discountCode: numeric("Código do Desconto 1", 142, 142),
  discountUntil: numeric("Data do Desconto 1", 143, 150),
  discount: numeric("Valor/Percentual a ser Concedido", 151, 165, { decimals: 2 }),
  iof: numeric("Valor do IOF a ser Recolhido", 166, 180, { decimals: 2 }),
  rebate: numeric("Valor do Abatimento", 181, 195, { decimals: 2 }),
  companyReference: alphanumeric("Identificação do Título na Empresa", 196, 220),
  protestCode: numeric("Código para Protesto", 221, 221),
  protestDays: numeric("Número de Dias para Protesto", 222, 223),
  writeOffCode: numeric("Código para Baixa/Devolução", 224, 224),
  writeOffDays: alphanumeric("Número de Dias para Baixa/Devolução", 225, 227),
  currency: numeric("Código da Moeda", 228, 229),
  contract: numeric("Nº do Contrato da Operação de Créd.", 230, 239),
  partialPayment: alphanumeric("Uso Livre Banco/Empresa ou Autorização de Pagamento Parcial", 240, 240)
} satisfies Layout

export const segmentQ = {
  ...detail("Q"),
  movement: numeric("Código de Movimento Remessa", 16, 17),
  payerDocumentType: numeric("Tipo de Inscrição do Pagador", 18, 18),
  payerDocument: numeric("Número de Inscrição do Pagador", 19, 33),
  payerName: alphanumeric("Nome do Pagador", 34, 73),
  payerAddress: alphanumeric("Endereço do Pagador", 74, 113),
  payerDistrict: alphanumeric("Bairro do Pagador", 114, 128),
  payerZip: numeric("CEP do Pagador", 129, 133),
  payerZipSuffix: numeric("Sufixo do CEP do Pagador", 134, 136),
  payerCity: alphanumeric("Cidade do Pagador", 137, 151),
  payerState: alphanumeric("Unidade da Federação do Pagador", 152, 153),
  guarantorDocumentType: numeric("Tipo de Inscrição do Beneficiário Final", 154, 154),
  guarantorDocument: numeric("Número de Inscrição do Beneficiário Final", 155, 169),
  guarantorName: alphanumeric("Nome do Beneficiário Final", 170, 209),
  correspondentBank: numeric("Cód. Bco. Corresp. na Compensação", 210, 212),
  correspondentOurNumber: alphanumeric("Nosso Nº no Banco Correspondente", 213, 232),
  reserved2: reserved(233, 240)
} satisfies Layout

export const segmentR = {
  ...detail("R"),
  movement: numeric("Código de Movimento Remessa", 16, 17),
  discount2Code: numeric("Código do Desconto 2", 18, 18),
  discount2Until: numeric("Data do Desconto 2", 19, 26),
  discount2: numeric("Valor/Percentual a ser Concedido", 27, 41, { decimals: 2 }),
  discount3Code: numeric("Código do Desconto 3", 42, 42),
  discount3Until: numeric("Data do Desconto 3", 43, 50),
  discount3: numeric("Valor/Percentual a ser Concedido", 51, 65, { decimals: 2 }),
  fineCode: alphanumeric("Código da Multa", 66, 66),
  fineFrom: numeric("Data da Multa", 67, 74),
  fine: numeric("Valor/Percentual a ser Aplicado", 75, 89, { decimals: 2 }),
  payerInformation: alphanumeric("Informação ao Pagador", 90, 99),
  message3: alphanumeric("Mensagem 3", 100, 139),
  message4: alphanumeric("Mensagem 4", 140, 179),
  reserved2: reserved(180, 199),
  payerOccurrence: numeric("Cód. Ocor. do Pagador", 200, 207),
  debitBank: numeric("Cód. do Banco na Conta do Débito", 208, 210),
  debitAgency: numeric("Código da Agência do Débito", 211, 215),
  debitAgencyDigit: alphanumeric("Dígito Verificador da Agência", 216, 216),
  debitAccount: numeric("Conta Corrente para Débito", 217, 228),
  debitAccountDigit: alphanumeric("Dígito Verificador da Conta", 229, 229),
  debitAgencyAccountDigit: alphanumeric("Dígito Verificador Ag/Conta", 230, 230),
  debitNotice: numeric("Aviso para Débito Automático", 231, 231),
  reserved3: reserved(232, 240)
} satisfies Layout

export const segmentT = {
  ...detail("T"),
  movement: numeric("Código de Movimento Retorno", 16, 17),
  ...beneficiaryAccount,
  wallet: numeric("Código da Carteira", 58, 58),
  documentNumber: alphanumeric("Número do Documento de Cobrança", 59, 73),
  dueDate: numeric("Data do Vencimento do Título", 74, 81),
  amount: numeric("Valor Nominal do Título", 82, 96, { decimals: 2 }),
  receivingBank: numeric("Número do Banco", 97, 99),
  receivingAgency: numeric("Agência Cobradora/Recebedora", 100, 104),
  receivingAgencyDigit: alphanumeric("Dígito Verificador da Agência", 105, 105),
  companyReference: alphanumeric("Identificação do Título na Empresa", 106, 130),
  currency: numeric("Código da Moeda", 131, 132),
  payerDocumentType: numeric("Tipo de Inscrição do Pagador", 133, 133),
  payerDocument: numeric("Número de Inscrição do Pagador", 134, 148),
  payerName: alphanumeric("Nome do Pagador", 149, 188),
  contract: numeric("Nº do Contr. da Operação de Crédito", 189, 198),
  fee: numeric("Valor da Tarifa / Custas", 199, 213, { decimals: 2 }),
  reasons: alphanumeric("Motivo da Ocorrência", 214, 223),
  reserved2: reserved(224, 240)
} satisfies Layout

export const segmentU = {
  ...detail("U"),
  movement: numeric("Código de Movimento Retorno", 16, 17),
  charges: numeric("Juros / Multa / Encargos", 18, 32, { decimals: 2 }),
  discount: numeric("Valor do Desconto Concedido", 33, 47, { decimals: 2 }),
  rebate: numeric("Valor do Abat. Concedido/Cancel.", 48, 62, { decimals: 2 }),
  iof: numeric("Valor do IOF Recolhido", 63, 77, { decimals: 2 }),
  paid: numeric("Valor Pago pelo Pagador", 78, 92, { decimals: 2 }),
  net: numeric("Valor Líquido a ser Creditado", 93, 107, { decimals: 2 }),
  otherExpenses: numeric("Valor de Outras Despesas", 108, 122, { decimals: 2 }),
  otherCredits: numeric("Valor de Outros Créditos", 123, 137, { decimals: 2 }),
  occurredOn: numeric("Data da Ocorrência", 138, 145),
  creditedOn: numeric("Data da Efetivação do Crédito", 146, 153),
  payerOccurrence: numeric("Código da Ocorrência do Pagador", 154, 157),
  payerOccurrenceOn: numeric("Data da Ocorrência do Pagador", 158, 165),
  payerOccurrenceAmount: numeric("Valor da Ocorrência do Pagador", 166, 180, { decimals: 2 }),
  payerOccurrenceText: alphanumeric("Complem. da Ocorr. do Pagador", 181, 210),
  correspondentBank: numeric("Cód. Banco Correspondente Compens.", 211, 213),
  correspondentOurNumber: alphanumeric("Nosso Nº Banco Correspondente", 214, 233),
  reserved2: reserved(234, 240)
} satisfies Layout

export const batchTrailer = {
  ...control(undefined, "5"),
  reserved1: reserved(9, 17),
  records: numeric("Quantidade de Registros no Lote", 18, 23),
  simpleCount: numeric("Quantidade de Títulos em Cobrança Simples", 24, 29),
  simpleTotal: numeric("Valor Total dos Títulos em Cobrança Simples", 30, 46, { decimals: 2 }),
  linkedCount: numeric("Quantidade de Títulos em Cobrança Vinculada", 47, 52),
  linkedTotal: numeric("Valor Total dos Títulos em Cobrança Vinculada", 53, 69, { decimals: 2 }),
  securedCount: numeric("Quantidade de Títulos em Cobrança Caucionada", 70, 75),
  securedTotal: numeric("Valor Total dos Títulos em Cobrança Caucionada", 76, 92, { decimals: 2 }),
  discountedCount: numeric("Quantidade de Títulos em Cobrança Descontada", 93, 98),
  discountedTotal: numeric("Valor Total dos Títulos em Cobrança Descontada", 99, 115, { decimals: 2 }),
  notice: alphanumeric("Número do Aviso de Lançamento", 116, 123),
  reserved2: reserved(124, 240)
} satisfies Layout
