// SPEC 15.2 through the local bank (apps/bank) over SFTP, on each database: a withdrawal handed to the bank's rail goes
// out in a payments remessa — a pix by the account's details, paid with its end-to-end id; a pix the receiving
// institution cannot take tried again as a TED and paid; a payment the bank refuses failed, its money given back; one
// returned after it was paid failed too — each withdrawal paid once, whatever is asked again.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bankActs, exchange, startLocalBank, type TestBank } from "./support/Bank.js"
import { startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"
import {
  available,
  aWithdrawingCompany,
  getWithdrawal,
  secondsAfter,
  sweepAllAt,
  withdraw,
  withdrawalFee
} from "./support/Withdrawals.js"

describe.each(testDatabases)("withdrawals paid by the bank on $name", (database) => {
  let bank: TestBank
  let app: TestApp

  beforeAll(async () => {
    bank = await startLocalBank()
    app = await startApp(database, { bank: bank.settings })
  })
  afterAll(async () => {
    await app?.stop()
    await bank?.stop()
  })

  let rounds = 0

  /**
   * The sweep hands over what is pending (now, when no look is due yet), the exchange sends it, the bank accepts and
   * then pays or refuses it, the exchange reads that, and the sweep, two hours further each round (past the hourly
   * look at a paid withdrawal, which a bank may still return), settles the withdrawals as the rail now says.
   */
  const payOut = async () => {
    rounds += 1
    await sweepAllAt(app, new Date())
    const sent = await exchange(app)
    bankActs(bank)
    bankActs(bank)
    const read = await exchange(app)
    await sweepAllAt(app, secondsAfter(new Date(), 7_200 * rounds))
    return { sent: sent.uploaded, read: read.read }
  }

  const withdrawn = async (key: string, amount: number) => {
    const reply = await withdraw(app, key, { amount })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return reply.body.id as string
  }

  it("pays a withdrawal by pix through a payments remessa, with the pix's end-to-end id, once", async () => {
    const company = await aWithdrawingCompany(app, { sales: [50_000] })
    const id = await withdrawn(company.key, 10_000)
    const { sent, read } = await payOut()
    expect(sent).toEqual([expect.stringMatching(/^PG\d{6}\.REM$/)])
    expect(read).toHaveLength(2)
    const paid = (await getWithdrawal(app, company.key, id)).body
    expect(paid).toMatchObject({ status: "paid", rail: "pix" })
    expect(paid.end_to_end_id).toMatch(/^E99999999\d{12}[A-Za-z0-9]{11}$/)
    const transfers = (await bank.simulate("GET", "/transfers")).body as Array<any>
    expect(
      transfers.filter((transfer) => transfer.amount === 10_000).map((transfer) => [transfer.form, transfer.status])
    ).toEqual([["45", "paid"]])
    // Asked about again, exchanged again: nothing more is paid.
    await payOut()
    expect(
      ((await bank.simulate("GET", "/transfers")).body as Array<any>).filter((transfer) => transfer.amount === 10_000)
    ).toHaveLength(1)
  })

  it("tries again as a TED a pix the receiving institution cannot take, and pays it", async () => {
    expect((await bank.simulate("POST", "/transfers/fail", { amount: 12_000, occurrence: "PC" })).status).toBe(201)
    const company = await aWithdrawingCompany(app, { sales: [50_000] })
    const id = await withdrawn(company.key, 12_000)
    await payOut()
    expect((await getWithdrawal(app, company.key, id)).body.status).toBe("processing")
    await payOut()
    const paid = (await getWithdrawal(app, company.key, id)).body
    expect(paid).toMatchObject({ status: "paid", rail: "ted", end_to_end_id: null })
    const transfers = ((await bank.simulate("GET", "/transfers")).body as Array<any>).filter(
      (transfer) => transfer.amount === 12_000
    )
    expect(transfers.map((transfer) => [transfer.form, transfer.status])).toEqual([
      ["45", "refused"],
      ["41", "paid"]
    ])
  })

  it("fails a withdrawal the bank refuses, and one returned after it was paid, giving back what each drew", async () => {
    expect((await bank.simulate("POST", "/transfers/fail", { amount: 14_000, occurrence: "AN" })).status).toBe(201)
    const company = await aWithdrawingCompany(app, { sales: [50_000] })
    const before = await available(app, company.key)
    const refused = await withdrawn(company.key, 14_000)
    const returned = await withdrawn(company.key, 15_000)
    expect(await available(app, company.key)).toBe(before - 14_000 - 15_000 - 2 * withdrawalFee)
    await payOut()
    expect((await getWithdrawal(app, company.key, refused)).body).toMatchObject({
      status: "failed",
      failure_reason: "AN Conta Corrente/DV/Conta de Pagamento do Favorecido Inválido"
    })
    expect((await getWithdrawal(app, company.key, returned)).body.status).toBe("paid")
    const transfer = ((await bank.simulate("GET", "/transfers")).body as Array<any>).find(
      (candidate) => candidate.amount === 15_000
    )
    expect((await bank.simulate("POST", `/transfers/${transfer.id}/return`)).status).toBe(200)
    await payOut()
    expect((await getWithdrawal(app, company.key, returned)).body).toMatchObject({
      status: "failed",
      failure_reason: "DV Crédito Devolvido pelo Banco do Favorecido"
    })
    expect(await available(app, company.key)).toBe(before)
  })
})
