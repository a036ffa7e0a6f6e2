// The occurrence codes the local bank answers with, as FEBRABAN's tables give them: C047 (why a boleto's instruction
// was rejected), G059 (how a payment, a batch or a file stands) — and the one code of a returned credit, which
// FEBRABAN leaves to each bank and this one writes as `DV`.

/** Table C047: reasons a cobrança instruction is rejected (segment T, `Motivo da Ocorrência`). */
export const rejectionReasons = {
  "01": "Código do Banco Inválido",
  "05": "Código de Movimento Inválido",
  "07": "Agência/Conta/DV Inválido",
  "08": "Nosso Número Inválido",
  "09": "Nosso Número Duplicado",
  "10": "Carteira Inválida",
  "11": "Forma de Cadastramento do Título Inválido",
  "12": "Tipo de Documento Inválido",
  "13": "Identificação da Emissão do Boleto Inválida",
  "14": "Identificação da Distribuição do Boleto Inválida",
  "16": "Data de Vencimento Inválida",
  "17": "Data de Vencimento Anterior a Data de Emissão",
  "20": "Valor do Título Inválido",
  "21": "Espécie do Título Inválida",
  "23": "Aceite Inválido",
  "24": "Data da Emissão Inválida",
  "26": "Código de Juros de Mora Inválido",
  "27": "Valor/Taxa de Juros de Mora Inválido",
  "45": "Nome do Pagador Não Informado",
  "46": "Tipo/Número de Inscrição do Pagador Inválidos",
  "47": "Endereço do Pagador Não Informado",
  "48": "CEP Inválido",
  "52": "Unidade da Federação Inválida",
  "57": "Código da Multa Inválido",
  "58": "Data da Multa Inválida",
  "59": "Valor/Percentual da Multa Inválido",
  "60": "Movimento para Título Não Cadastrado",
  "63": "Entrada para Título já Cadastrado",
  "99": "Rejeitado pelo Banco a Pedido do Simulador"
} as const

export type RejectionReason = keyof typeof rejectionReasons

/** Table G059: how a payment, a batch or a file stands. */
export const occurrences = {
  "00": "Crédito ou Débito Efetivado",
  AA: "Controle Inválido",
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
  HG: "Lote de Serviço Fora de Seqüência",
  HH: "Lote de Serviço Inválido",
  HI: "Arquivo não Aceito",
  HJ: "Tipo de Registro Inválido",
  HK: "Código Remessa / Retorno Inválido",
  HL: "Versão de Leiaute Inválida",
  PC: "Número da Conta Transacional Encerrada no PSP do Recebedor",
  PL: "Forma de Iniciação Inválida",
  TA: "Lote Não Aceito - Totais do Lote com Diferença",
  DV: "Crédito Devolvido pelo Banco do Favorecido"
} as const

export type Occurrence = keyof typeof occurrences
