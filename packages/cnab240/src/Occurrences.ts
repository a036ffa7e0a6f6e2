// The occurrence codes of FEBRABAN's tables as Fatura reads them in retornos: G059 (how a payment stands) and C047
// (why a boleto's instruction was rejected), each with its description, and `DV`, the returned credit FEBRABAN leaves
// to each bank.

/** Table G059: how a payment stands. */
export const paymentOccurrences: Readonly<Record<string, string>> = {
  "00": "Crédito ou Débito Efetivado",
  "01": "Insuficiência de Fundos - Débito Não Efetuado",
  "02": "Crédito ou Débito Cancelado pelo Pagador/Credor",
  AA: "Controle Inválido",
  AB: "Tipo de Operação Inválido",
  AC: "Tipo de Serviço Inválido",
  AD: "Forma de Lançamento Inválida",
  AE: "Tipo/Número de Inscrição Inválido",
  AF: "Código de Convênio Inválido",
  AG: "Agência/Conta Corrente/DV Inválido",
  AH: "Nº Seqüencial do Registro no Lote Inválido",
  AI: "Código de Segmento de Detalhe Inválido",
  AJ: "Tipo de Movimento Inválido",
  AK: "Código da Câmara de Compensação do Banco Favorecido/Depositário Inválido",
  AL: "Código do Banco Favorecido, Instituição de Pagamento ou Depositário Inválido",
  AM: "Agência Mantenedora da Conta Corrente do Favorecido Inválida",
  AN: "Conta Corrente/DV/Conta de Pagamento do Favorecido Inválido",
  AO: "Nome do Favorecido Não Informado",
  AP: "Data Lançamento Inválido",
  AQ: "Tipo/Quantidade da Moeda Inválido",
  AR: "Valor do Lançamento Inválido",
  BD: "Inclusão Efetuada com Sucesso",
  PA: "Pix Não Efetivado",
  PB: "Transação Interrompida devido a Erro no PSP do Recebedor",
  PC: "Número da Conta Transacional Encerrada no PSP do Recebedor",
  PD: "Tipo Incorreto para a Conta Transacional Especificada",
  PE: "Tipo de Transação Não é Suportado/Autorizado na Conta Transacional do Recebedor",
  PF: "CPF/CNPJ do Usuário Recebedor Não é Consistente com o Titular da Conta Transacional Especificada",
  PG: "CPF/CNPJ do Usuário Recebedor Incorreto",
  PH: "Ordem Rejeitada pelo PSP do Recebedor",
  PL: "Forma de Iniciação Inválida",
  TA: "Lote Não Aceito - Totais do Lote com Diferença",
  DV: "Crédito Devolvido pelo Banco do Favorecido"
}

/** The codes of a pix the receiving institution could not take, which a TED may still pay. */
export const isPixRefusal = (code: string): boolean => /^P[A-H]$/.test(code)

/** Table C047: why the bank rejected a boleto's instruction (the reasons of a `03`). */
export const rejectionReasons: Readonly<Record<string, string>> = {
  "01": "Código do Banco Inválido",
  "05": "Código de Movimento Inválido",
  "07": "Agência/Conta/DV Inválido",
  "08": "Nosso Número Inválido",
  "09": "Nosso Número Duplicado",
  "10": "Carteira Inválida",
  "16": "Data de Vencimento Inválida",
  "17": "Data de Vencimento Anterior a Data de Emissão",
  "20": "Valor do Título Inválido",
  "21": "Espécie do Título Inválida",
  "45": "Nome do Pagador Não Informado",
  "46": "Tipo/Número de Inscrição do Pagador Inválidos",
  "47": "Endereço do Pagador Não Informado",
  "48": "CEP Inválido",
  "52": "Unidade da Federação Inválida",
  "63": "Entrada para Título já Cadastrado"
}

const describe = (table: Readonly<Record<string, string>>) => (codes: ReadonlyArray<string>) =>
  codes.map((code) => (table[code] === undefined ? code : `${code} ${table[code]}`)).join("; ")

/** Codes of G059 as words: `AN Conta Corrente/DV/… Inválido; PC …`. */
export const describeOccurrences = describe(paymentOccurrences)

/** Reasons of C047 as words. */
export const describeReasons = describe(rejectionReasons)
