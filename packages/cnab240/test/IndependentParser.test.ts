// The remessas this package writes, read by a CNAB 240 parser of someone else's: @banco-br/nodejs-cnab's line reader
// over the FEBRABAN layouts of @banco-br/cnab_yaml (generic, v08.8-based), both from the npm registry. Where their
// tables and ours name the same positions, they must read what we meant to write.
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Cobranca, Pagamentos } from "../src/index.js"
import { account, agreement, boleto, payment, written } from "./support/Fixtures.js"

const require = createRequire(import.meta.url)
const { makeLine, readYaml } = require("@banco-br/nodejs-cnab/dist/lib/utils.js") as {
  readonly makeLine: (layout: unknown, line: string) => Record<string, string>
  readonly readYaml: (path: string) => unknown
}
const layouts = join(dirname(require.resolve("@banco-br/cnab_yaml/package.json")), "cnab240", "generic")
const parse = (layout: string, line: string) => makeLine(readYaml(join(layouts, `${layout}.yml`)), line)

const linesOf = (text: string) => text.split("\r\n").slice(0, -1)

describe("an independent parser", () => {
  it("reads a cobrança remessa's header, P, Q, R and trailers as written", () => {
    const lines = linesOf(
      Cobranca.remessa({
        agreement,
        sequence: 31,
        written,
        instructions: [{ _tag: "Register", boleto: boleto(2, { fineBasisPoints: 200 }) }]
      })
    )
    expect(lines).toHaveLength(7)
    const header = parse("header_arquivo", lines[0]!)
    expect(header).toMatchObject({
      codigo_banco: "341",
      lote_servico: "0000",
      tipo_registro: "0",
      codigo_inscricao: "2",
      numero_inscricao: "11222333000181",
      agencia: "00057",
      codigo_cedente: "000000072192",
      codigo_cedente_dv: "1",
      codigo_remessa_retorno: "1",
      data_geracao: "29112026",
      hora_geracao: "101530",
      numero_sequencial_arquivo: "000031"
    })
    expect(header.nome_empresa?.trim()).toBe("FATURA PAGAMENTOS LTDA")
    expect(parse("header_lote", lines[1]!)).toMatchObject({ tipo_registro: "1", tipo_servico: "01", agencia: "00057" })
    const p = parse("remessa/detalhe_segmento_p", lines[2]!)
    expect(p).toMatchObject({
      tipo_registro: "3",
      numero_sequencial_lote: "00001",
      codigo_segmento: "P",
      codigo_ocorrencia: "01",
      codigo_carteira: "1",
      vencimento: "02122026",
      valor_titulo: "000000000024690",
      especie: "17",
      aceite: "N",
      data_emissao: "29112026",
      codigo_protesto: "3",
      codigo_moeda: "09"
    })
    expect(`${p.uso_exclusivo_banco_01}${p.nosso_numero}`.trim()).toBe("1002")
    const q = parse("remessa/detalhe_segmento_q", lines[3]!)
    expect(q).toMatchObject({
      codigo_segmento: "Q",
      sacado_codigo_inscricao: "1",
      sacado_numero_inscricao: "000052998224725",
      cep: "22240003",
      estado: "RJ"
    })
    expect(q.nome?.trim()).toBe("MARIA DA CONCEICAO SOUZA")
    expect(q.cidade?.trim()).toBe("RIO DE JANEIRO")
    expect(parse("remessa/detalhe_segmento_r", lines[4]!)).toMatchObject({
      codigo_segmento: "R",
      codigo_multa: "2",
      data_multa: "03122026",
      valor_multa: "000000000000200"
    })
    expect(parse("trailer_lote", lines[5]!)).toMatchObject({
      tipo_registro: "5",
      qtde_registro_lote: "000005",
      qtde_titulo_cobranca_simples: "000001",
      valor_total_titulo_simples: "00000000000024690"
    })
    expect(parse("trailer_arquivo", lines[6]!)).toMatchObject({
      lote_servico: "9999",
      tipo_registro: "9",
      qtde_lotes: "000001",
      qtde_registros: "000007"
    })
  })

  it("reads a payments remessa's segment A as written", () => {
    const lines = linesOf(Pagamentos.remessa({ account, sequence: 5, written, payments: [payment(7, "ted")] }))
    const a = parse("remessa/detalhe_segmento_a", lines[2]!)
    expect(a).toMatchObject({
      codigo_segmento: "A",
      tipo_movimento: "0",
      codigo_instrucao_movimento: "00",
      camara_centralizadora: "018",
      banco_favorecido: "001",
      agencia_favorecido: "01234",
      conta_favorecido: "000005678901",
      conta_dv_favorecido: "2",
      numero_documento: "WD000000000000000007",
      data_pagamento: "30112026",
      tipo_moeda: "BRL",
      valor_pagamento: "000000000070000",
      finalidade_ted: "00010",
      finalidade_complementar: "CC"
    })
    expect(a.nome_favorecido?.trim()).toBe("PADARIA SAO JOAO LTDA")
  })
})
