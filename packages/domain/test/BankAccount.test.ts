import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { BankAccount } from "../src/index.js"

const itau = { bankCode: "341", agency: "0001", account: "12345", digit: "6", type: "corrente" } as const
const reason = (input: BankAccount.BankAccountInput) =>
  Result.match(BankAccount.parse(input), {
    onSuccess: () => "accepted",
    onFailure: (error) => `${error.field}: ${error.reason}`
  })

describe("BankAccount.parse", () => {
  it("names the bank by its code, and keeps the digits of agency and account as written", () => {
    expect(BankAccount.parse(itau)).toEqual(
      Result.succeed({
        code: "341",
        name: "Itaú Unibanco S.A.",
        agency: "0001",
        account: "12345",
        digit: "6",
        type: "corrente"
      })
    )
    expect(BankAccount.parse({ ...itau, agency: "0001", account: "00.123-45", digit: "x", type: "poupanca" })).toEqual(
      Result.succeed({
        code: "341",
        name: "Itaú Unibanco S.A.",
        agency: "0001",
        account: "0012345",
        digit: "X",
        type: "poupanca"
      })
    )
  })

  it.each([
    [{ ...itau, bankCode: "34" }, "bankCode: the bank code is the bank's 3-digit COMPE code"],
    [{ ...itau, bankCode: "999" }, "bankCode: no bank Fatura pays to has the code 999"],
    [{ ...itau, agency: "" }, "agency: the agency is 1 to 5 digits"],
    [{ ...itau, agency: "123456" }, "agency: the agency is 1 to 5 digits"],
    [{ ...itau, agency: "12a4" }, "agency: the agency is 1 to 5 digits"],
    [{ ...itau, account: "1234567890123" }, "account: the account is 1 to 12 digits, without its check digit"],
    [{ ...itau, account: "-" }, "account: the account is 1 to 12 digits, without its check digit"],
    [{ ...itau, digit: "" }, "digit: the check digit is one digit, or X"],
    [{ ...itau, digit: "12" }, "digit: the check digit is one digit, or X"],
    [{ ...itau, digit: "Y" }, "digit: the check digit is one digit, or X"]
  ])("refuses %o", (input, why) => {
    expect(reason(input)).toBe(why)
  })

  it("knows every bank by a 3-digit code and a name", () => {
    for (const [code, name] of BankAccount.banks) {
      expect(code).toMatch(/^\d{3}$/)
      expect(name.length).toBeGreaterThan(3)
    }
  })
})
