// The bank's checks of a remessa: everything Fatura's writers write passes them; a line whose field breaks the layout
// is refused with C047's reason (a boleto) or G059's occurrence (a payment); a file whose frame is broken is refused
// whole, with G059's codes and the line at fault.
import { describe, expect, it } from "@effect/vitest"
import { Cobranca, Pagamentos } from "@fatura/cnab240"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { type Client, check } from "../src/RemessaChecks.js"
import { bank } from "../src/Settings.js"
import { agreementOf, boleto, payer, paying, payment, registering, written } from "./support/Remessas.js"

const env: Readonly<Record<string, string>> = {
  FATURA_BANK_CODE: bank.code,
  FATURA_BANK_NAME: bank.name,
  FATURA_BANK_COMPANY_CNPJ: "11222333000181",
  FATURA_BANK_COMPANY_NAME: "Fatura Pagamentos Ltda",
  FATURA_BANK_AGREEMENT: bank.agreement,
  FATURA_BANK_AGENCY: bank.agency,
  FATURA_BANK_ACCOUNT: bank.account,
  FATURA_BANK_ACCOUNT_DIGIT: bank.accountDigit,
  FATURA_BANK_WALLET: bank.wallet
}

const client: Client = {
  bankCode: bank.code,
  document: "11222333000181",
  agreement: bank.agreement,
  agency: bank.agency,
  account: bank.account,
  accountDigit: bank.accountDigit
}

/** A file with `text` written at positions `from`.. of line `number` (1-based). */
const patched = (file: string, number: number, from: number, text: string) =>
  file
    .split("\r\n")
    .map((line, index) =>
      index === number - 1 ? `${line.slice(0, from - 1)}${text}${line.slice(from - 1 + text.length)}` : line
    )
    .join("\r\n")

const reasonsOf = (file: string) => {
  const checked = check(file, client)
  if (checked._tag !== "Cobranca") throw new Error(`expected boletos, got ${JSON.stringify(checked)}`)
  return checked.boletos.map((one) => one.reasons)
}

const refusalsOf = (file: string) => {
  const checked = check(file, client)
  if (checked._tag !== "Pagamentos") throw new Error(`expected payments, got ${JSON.stringify(checked)}`)
  return checked.transfers.map((one) => one.refusals)
}

describe("the bank's checks of a cobrança remessa", () => {
  const file = registering(env, 1, [boleto("1001"), boleto("1002", 500, { fineBasisPoints: 200, interestPerDay: 10 })])

  it("take every boleto Fatura's writer registers, with its facts", () => {
    const checked = check(file, client)
    expect(checked).toMatchObject({
      _tag: "Cobranca",
      sequence: 1,
      boletos: [
        { movement: "01", ourNumber: "1001", amount: 12_345, dueDate: "2026-12-03", reasons: [] },
        { movement: "01", ourNumber: "1002", amount: 500, reasons: [] }
      ]
    })
  })

  it("refuse a boleto by the field at fault, with C047's reason", () => {
    // Line 3 is the first boleto's P, line 4 its Q.
    expect(reasonsOf(patched(file, 3, 38, "ABC "))[0]).toEqual(["08"])
    expect(reasonsOf(patched(file, 3, 58, "9"))[0]).toEqual(["10"])
    expect(reasonsOf(patched(file, 3, 78, "31022026"))[0]).toEqual(["16"])
    expect(reasonsOf(patched(file, 3, 86, "000000000000000"))[0]).toEqual(["20"])
    expect(reasonsOf(patched(file, 3, 107, "55"))[0]).toEqual(["21"])
    expect(reasonsOf(patched(file, 3, 110, "04122026"))[0]).toEqual(["17"])
    expect(reasonsOf(patched(file, 4, 19, "000052998224724"))[0]).toEqual(["46"])
    expect(reasonsOf(patched(file, 4, 34, " ".repeat(40)))[0]).toEqual(["45"])
    expect(reasonsOf(patched(file, 4, 129, "00000000"))[0]).toEqual(["48"])
    expect(reasonsOf(patched(file, 4, 152, "XX"))[0]).toEqual(["52"])
    expect(reasonsOf(patched(file, 3, 18, "00002"))[0]).toEqual(["07"])
    // The second boleto, with a fine (its R is line 7).
    expect(reasonsOf(patched(file, 7, 66, "7"))[1]).toEqual(["57"])
    expect(reasonsOf(patched(file, 7, 75, "0".repeat(15)))[1]).toEqual(["59"])
  })

  it("refuse a file whose frame is broken, naming the line and G059's code", () => {
    const problems = (text: string) => {
      const checked = check(text, client)
      return checked._tag === "Refused" ? checked.problems.map((problem) => [problem.line, problem.code]) : checked
    }
    expect(problems(patched(file, 3, 1, "341"))).toEqual([[3, "AA"]])
    expect(problems(patched(file, 1, 143, "2"))).toEqual([[1, "HK"]])
    expect(problems(patched(file, 1, 164, "087"))).toEqual([[1, "HL"]])
    expect(problems(patched(file, 1, 33, "9999999"))).toEqual([[1, "AF"]])
    expect(problems(patched(file, 4, 9, "00009"))).toEqual([[4, "AH"]])
    expect(problems(patched(file, 8, 18, "000099"))).toEqual([[8, "TA"]])
    expect(problems(patched(file, 9, 24, "000001"))).toEqual([[9, "TA"]])
    const short = file
      .split("\r\n")
      .map((line, index) => (index === 2 ? line.slice(0, 200) : line))
      .join("\r\n")
    expect(problems(short)).toEqual([[3, "HJ"]])
  })

  it("take any remessa Fatura's writer makes of valid boletos", () => {
    const anyBoleto = fc.record({
      ourNumber: fc.integer({ min: 1, max: 99_999_999_999 }).map(String),
      amount: fc.integer({ min: 100, max: 100_000_000 }),
      name: fc.string({ minLength: 1, maxLength: 60 }).filter((name) => /[a-z0-9]/i.test(name)),
      document: fc.constantFrom("52998224725", "11144477735", "11444777000161", "11222333000181"),
      days: fc.integer({ min: 0, max: 365 }),
      fine: fc.option(fc.integer({ min: 1, max: 2_000 }), { nil: undefined })
    })
    fc.assert(
      fc.property(fc.array(anyBoleto, { minLength: 1, maxLength: 12 }), (boletos) => {
        const file = Cobranca.remessa({
          agreement: agreementOf(env),
          sequence: 9,
          written,
          instructions: boletos.map((one) => ({
            _tag: "Register" as const,
            boleto: boleto(one.ourNumber, one.amount, {
              dueDate: new Date(Date.parse("2026-11-30") + one.days * 86_400_000).toISOString().slice(0, 10),
              payer: { ...payer, name: one.name, document: one.document },
              ...(one.fine === undefined ? {} : { fineBasisPoints: one.fine })
            })
          }))
        })
        expect(reasonsOf(file)).toEqual(boletos.map(() => []))
      }),
      { numRuns: propertyRuns(200) }
    )
  })
})

describe("the bank's checks of a payments remessa", () => {
  const file = paying(env, 2, [payment("WD1", "pix"), payment("WD2", "ted"), payment("WD3", "creditInAccount")])

  it("take every payment Fatura's writer makes, by each form", () => {
    expect(check(file, client)).toMatchObject({
      _tag: "Pagamentos",
      sequence: 2,
      transfers: [
        { form: "01", reference: "WD3", refusals: [] },
        { form: "41", reference: "WD2", refusals: [] },
        { form: "45", reference: "WD1", amount: 10_000, payeeBank: "001", refusals: [] }
      ]
    })
  })

  it("refuse a payment by the field at fault, with G059's occurrence", () => {
    // Line 3 is the credit's A, line 4 its B.
    expect(refusalsOf(patched(file, 3, 18, "018"))[0]).toEqual(["AK"])
    expect(refusalsOf(patched(file, 3, 44, " ".repeat(30)))[0]).toEqual(["AO"])
    expect(refusalsOf(patched(file, 3, 102, "USD"))[0]).toEqual(["AQ"])
    expect(refusalsOf(patched(file, 3, 120, "0".repeat(15)))[0]).toEqual(["AR"])
    expect(refusalsOf(patched(file, 4, 19, "11444777000160"))[0]).toEqual(["AE"])
  })

  it("take any remessa Fatura's writer makes of valid payments", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            form: fc.constantFrom("pix" as const, "ted" as const, "creditInAccount" as const),
            amount: fc.integer({ min: 100, max: 100_000_000 })
          }),
          { minLength: 1, maxLength: 10 }
        ),
        (payments) => {
          const text = Pagamentos.remessa({
            account: agreementOf(env),
            sequence: 3,
            written,
            payments: payments.map((one, index) => payment(`WD${index}`, one.form, one.amount))
          })
          expect(refusalsOf(text).flat()).toEqual([])
        }
      ),
      { numRuns: propertyRuns(200) }
    )
  })
})
