// What the tests of withdrawals share: a company with a bank account and pix money available at once, its balances,
// the withdrawal events it recorded, and cents from a number.
import type { Cents } from "@fatura/domain"
import { Effect } from "effect"
import { Companies } from "../../src/companies/Companies.js"
import type { Principal } from "../../src/companies/Principal.js"
import { Invoices } from "../../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../../src/moves/InvoiceLifecycle.js"
import { Postbacks } from "../../src/postbacks/Postbacks.js"
import { pixRequest, registerMerchant } from "./Merchant.js"

/** A company with a bank account (ending in `account`) and a pix sale of `amount`, paid: available at once. */
export const aMerchantWith = (amount: number, account = "12345678") =>
  Effect.gen(function* () {
    const registered = yield* registerMerchant()
    yield* (yield* Companies).setBankAccount(registered.company.id, {
      bankCode: "341",
      agency: "0001",
      account,
      digit: "9",
      type: "corrente"
    })
    yield* sell(registered.principal, amount)
    return registered
  })

export const sell = (principal: Principal, amount: number) =>
  Effect.gen(function* () {
    const { invoice } = yield* (yield* Invoices).create(principal, pixRequest({ totalPriceCents: amount }))
    yield* (yield* InvoiceLifecycle).pay(principal, invoice.secureId)
  })

export const balances = (principal: Principal) =>
  Effect.map(
    Effect.flatMap(Companies, (companies) => companies.info(principal)),
    ({ totals }) => totals
  )

export const withdrawalEvents = (principal: Principal) =>
  Effect.gen(function* () {
    const page = yield* (yield* Postbacks).events(principal, {
      limit: 100,
      startingAfter: null,
      type: null,
      invoice: null
    })
    return page.events
      .filter((event) => event.type.startsWith("withdrawal."))
      .map((event) => event.type)
      .reverse()
  })

export const cents = (amount: number) => amount as Cents.Cents
