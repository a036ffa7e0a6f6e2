// SPEC 13.3 over HTTP: a withdrawal drawn from the available balances with its fee, to the bank account the CLI set
// (snapshotted), in the contract's shape and in the statement; listed, paged, filtered, and another's unknown; canceled
// while pending with its money back, once; refused to what the balances do not cover (to the cent), to a company
// without a bank account or blocked, and to live keys; handed to the sandbox rail by the sweep, which pays it, fails it
// (`0000`) or has it returned (`1111`), each move an event listed in order and sent to the endpoints subscribed.
import { Postback } from "@fatura/api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { release } from "./support/Receivables.js"
import { type Receiver, startReceiver } from "./support/Receiver.js"
import { cardRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"
import {
  available,
  aWithdrawingCompany,
  cancel,
  getWithdrawal,
  ledgerAvailable,
  listWithdrawals,
  secondsAfter,
  setBankAccount,
  sweepAllAt,
  timestampOf,
  withdraw,
  withdrawalEntries,
  withdrawalEvents
} from "./support/Withdrawals.js"

const timestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/

const formattedCnpj = (cnpj: string) =>
  `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`

describe.each(testDatabases)("withdrawals on $name", (database) => {
  let app: TestApp
  let receiver: Receiver

  beforeAll(async () => {
    app = await startApp(database)
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await app.stop()
    await receiver.stop()
  })

  const created = async (key: string, body: Record<string, unknown>) => {
    const reply = await withdraw(app, key, body)
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return reply.body
  }

  it("records one drawn from pix with its fee, to the bank account as it was, in the statement", async () => {
    const { key, company, companyId } = await aWithdrawingCompany(app)
    const withdrawal = await created(key, { amount: 5_000 })
    expect(withdrawal).toEqual({
      id: expect.stringMatching(/^wd_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      amount: 5_000,
      fee: 367,
      status: "pending",
      sources: [{ balance: "pix", amount: 5_367 }],
      destination: {
        bank_code: "341",
        bank_name: "Itaú Unibanco S.A.",
        agency: "0001",
        account: "12345678",
        digit: "9",
        type: "corrente",
        holder_name: "Loja Saque Ltda",
        holder_document: formattedCnpj(company.cnpj)
      },
      rail: null,
      end_to_end_id: null,
      failure_reason: null,
      created_at: expect.stringMatching(timestamp),
      updated_at: withdrawal.created_at,
      paid_at: null,
      livemode: false
    })
    // A pix of 100,00 left 98,01 available; the amount and its fee are gone from it at once.
    expect(await available(app, key)).toBe(9_801 - 5_367)
    expect(await ledgerAvailable(app, companyId)).toBe(9_801 - 5_367)
    const statement = await app.request("GET", "/api/v2/balance/operations?type=withdrawal_fee", { key })
    expect(statement.body.data).toEqual([
      {
        id: expect.any(Number),
        type: "withdrawal_fee",
        direction: "debit",
        amount: 367,
        balance: "pix",
        bucket: "available",
        invoice_id: null,
        withdrawal_id: withdrawal.id,
        anticipation_id: null,
        created_at: withdrawal.created_at
      }
    ])
    expect(await withdrawalEntries(app, key)).toEqual([
      ["withdrawal", "debit", 5_000, "pix", withdrawal.id],
      ["withdrawal_fee", "debit", 367, "pix", withdrawal.id]
    ])
    // A new bank account is where the next one goes; the first keeps the one it was asked for.
    await setBankAccount(app, companyId, "98765432", "237")
    expect((await getWithdrawal(app, key, withdrawal.id)).body).toEqual(withdrawal)
    const next = await created(key, { amount: 100 })
    expect(next.destination).toMatchObject({ bank_code: "237", bank_name: "Banco Bradesco S.A.", account: "98765432" })
    expect(await available(app, key)).toBe(9_801 - 5_367 - 467)
  })

  it("draws from pix, then bank_slip, then card without a balance named; from the one named alone", async () => {
    const { key } = await aWithdrawingCompany(app, { sales: [1_000] })
    const card = await app.request("POST", "/api/v2/invoices", { key, body: cardRequest() })
    await release(app, key, card.body.secureId)
    expect([await available(app, key, "pix"), await available(app, key, "card")]).toEqual([980, 9_562])

    const spread = await created(key, { amount: 2_000 })
    expect(spread.sources).toEqual([
      { balance: "pix", amount: 980 },
      { balance: "card", amount: 2_367 - 980 }
    ])
    // The fee comes first, out of the first balance drawn from.
    expect(await withdrawalEntries(app, key)).toEqual([
      ["withdrawal", "debit", 1_387, "card", spread.id],
      ["withdrawal", "debit", 613, "pix", spread.id],
      ["withdrawal_fee", "debit", 367, "pix", spread.id]
    ])
    const fromPix = await withdraw(app, key, { amount: 100, balance: "pix" })
    expect([fromPix.status, fromPix.body.code]).toEqual([422, "insufficient_balance"])
    const fromCard = await created(key, { amount: 9_562 - 1_387 - 367, balance: "card" })
    expect(fromCard.sources).toEqual([{ balance: "card", amount: 9_562 - 1_387 }])
    expect([await available(app, key, "pix"), await available(app, key, "card")]).toEqual([0, 0])

    // Canceled, it gives back to each balance what it drew from it.
    expect((await cancel(app, key, spread.id)).status).toBe(200)
    expect((await withdrawalEntries(app, key)).slice(0, 2)).toEqual([
      ["withdrawal_reversal", "credit", 1_387, "card", spread.id],
      ["withdrawal_reversal", "credit", 980, "pix", spread.id]
    ])
    expect([await available(app, key, "pix"), await available(app, key, "card")]).toEqual([980, 1_387])
  })

  it("lists newest first, pages by cursor, filters by status; another company's or mode's is a 404", async () => {
    const { key, companyId } = await aWithdrawingCompany(app, { sales: [20_000] })
    const first = await created(key, { amount: 1_000 })
    const second = await created(key, { amount: 1_100 })
    const third = await created(key, { amount: 1_200 })
    const canceled = (await cancel(app, key, second.id)).body
    expect(canceled).toEqual({ ...second, status: "canceled", updated_at: expect.stringMatching(timestamp) })

    expect(await listWithdrawals(app, key)).toEqual({
      data: [third, canceled, first],
      has_more: false,
      next_cursor: null
    })
    expect(await listWithdrawals(app, key, "?limit=2")).toEqual({
      data: [third, canceled],
      has_more: true,
      next_cursor: second.id
    })
    expect(await listWithdrawals(app, key, `?limit=2&starting_after=${second.id}`)).toEqual({
      data: [first],
      has_more: false,
      next_cursor: null
    })
    expect((await listWithdrawals(app, key, "?status=pending")).data).toEqual([third, first])
    expect((await listWithdrawals(app, key, "?status=canceled")).data).toEqual([canceled])
    expect((await listWithdrawals(app, key, "?status=paid")).data).toEqual([])
    const badStatus = await app.request("GET", "/api/v2/withdrawals?status=sent", { key })
    expect([badStatus.status, badStatus.body.code]).toEqual([400, "invalid_request"])
    expect((await getWithdrawal(app, key, first.id)).body).toEqual(first)

    const stranger = await aWithdrawingCompany(app)
    const live = await app.createKey(companyId, "live")
    for (const other of [stranger.key, live.secretKey]) {
      for (const reply of [
        await getWithdrawal(app, other, first.id),
        await cancel(app, other, first.id),
        await app.request("GET", `/api/v2/withdrawals?starting_after=${first.id}`, { key: other })
      ]) {
        expect([reply.status, reply.body.code]).toEqual([404, "not_found"])
      }
      expect((await listWithdrawals(app, other)).data).toEqual([])
    }
    const unknown = await getWithdrawal(app, key, "wd_00000000-0000-4000-8000-000000000000")
    expect(unknown.status).toBe(404)
    // The stranger's cancel changed nothing.
    expect((await getWithdrawal(app, key, first.id)).body).toEqual(first)
    expect(await available(app, key)).toBe(19_602 - 1_367 - 1_567)
  })

  it("cancels a pending one once: its money comes back; a second cancel is 409 invalid_state", async () => {
    const { key, companyId } = await aWithdrawingCompany(app)
    const withdrawal = await created(key, { amount: 5_000 })
    const canceled = await cancel(app, key, withdrawal.id)
    expect(canceled.status).toBe(200)
    expect(canceled.body).toEqual({ ...withdrawal, status: "canceled", updated_at: expect.stringMatching(timestamp) })
    expect(canceled.body.updated_at >= withdrawal.updated_at).toBe(true)
    expect(await available(app, key)).toBe(9_801)
    expect(await ledgerAvailable(app, companyId)).toBe(9_801)
    expect(await withdrawalEntries(app, key)).toEqual([
      ["withdrawal_reversal", "credit", 5_367, "pix", withdrawal.id],
      ["withdrawal", "debit", 5_000, "pix", withdrawal.id],
      ["withdrawal_fee", "debit", 367, "pix", withdrawal.id]
    ])

    const again = await cancel(app, key, withdrawal.id)
    expect([again.status, again.body.code]).toEqual([409, "invalid_state"])
    expect(await withdrawalEntries(app, key)).toHaveLength(3)
    expect(await available(app, key)).toBe(9_801)
    expect((await getWithdrawal(app, key, withdrawal.id)).body).toEqual(canceled.body)
    expect((await withdrawalEvents(app, key)).map((event) => [event.type, event.data.status])).toEqual([
      ["withdrawal.created", "pending"],
      ["withdrawal.canceled", "canceled"]
    ])
  })

  it("refuses what the balance does not cover to the cent, an amount under 100, and records nothing", async () => {
    const { key, companyId } = await aWithdrawingCompany(app)
    // 98,01 available: 94,34 and the fee of 3,67 fit exactly; a cent more does not.
    const over = await withdraw(app, key, { amount: 9_801 - 367 + 1 })
    expect([over.status, over.body.code]).toEqual([422, "insufficient_balance"])
    for (const body of [{ amount: 99 }, { amount: 100.5 }, { amount: "1000" }, { amount: 1_000, balance: "boleto" }]) {
      const refused = await withdraw(app, key, body)
      expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, "invalid_request"])
    }
    expect((await listWithdrawals(app, key)).data).toEqual([])
    expect(await available(app, key)).toBe(9_801)

    const exact = await created(key, { amount: 9_801 - 367 })
    expect(exact.sources).toEqual([{ balance: "pix", amount: 9_801 }])
    expect(await available(app, key)).toBe(0)
    expect(await ledgerAvailable(app, companyId)).toBe(0)
    const nothingLeft = await withdraw(app, key, { amount: 100 })
    expect([nothingLeft.status, nothingLeft.body.code]).toEqual([422, "insufficient_balance"])
    expect((await listWithdrawals(app, key)).data).toEqual([exact])
  })

  it("refuses a company without a bank account (422), one blocked from withdrawing (403), a live key (503)", async () => {
    const bare = await aWithdrawingCompany(app, { account: null })
    const missing = await withdraw(app, bare.key, { amount: 1_000 })
    expect([missing.status, missing.body.code]).toEqual([422, "bank_account_missing"])
    expect((await listWithdrawals(app, bare.key)).data).toEqual([])

    const { key, companyId } = await aWithdrawingCompany(app)
    for (const block of ["sake", "system"] as const) {
      await app.setBlock(companyId, block, true)
      const blocked = await withdraw(app, key, { amount: 1_000 })
      expect([blocked.status, blocked.body.code], block).toEqual([403, "forbidden"])
      await app.setBlock(companyId, block, false)
    }
    const live = await app.createKey(companyId, "live")
    const unavailable = await withdraw(app, live.secretKey, { amount: 1_000 })
    expect([unavailable.status, unavailable.body.code]).toEqual([503, "payout_unavailable"])
    for (const anyKey of [key, live.secretKey]) expect((await listWithdrawals(app, anyKey)).data).toEqual([])
    const [stored] = await app.query(`SELECT count(*)::int AS count FROM withdrawals WHERE company_id = ${companyId}`)
    expect(stored).toEqual({ count: 0 })
    expect(await withdrawalEntries(app, key)).toEqual([])
    expect(await available(app, key)).toBe(9_801)
    // Unblocked, it withdraws; a block of invoices (`processing`) is no block of withdrawals.
    await app.setBlock(companyId, "processing", true)
    expect((await withdraw(app, key, { amount: 1_000 })).status).toBe(201)
    expect(await available(app, key)).toBe(9_801 - 1_367)
  })

  it("the sweep hands them to the rail: paid, failed (0000) or returned (1111), each move an event", async () => {
    const paying = await aWithdrawingCompany(app)
    const failing = await aWithdrawingCompany(app, { account: "12340000" })
    const returning = await aWithdrawingCompany(app, { account: "12341111" })
    const endpoint = await app.request("POST", "/api/v2/webhooks/endpoints", {
      key: paying.key,
      body: { url: receiver.url("/withdrawals"), events: ["withdrawal.*"] }
    })
    expect(endpoint.status).toBe(201)
    const [paid, failed, returned] = [
      await created(paying.key, { amount: 5_000 }),
      await created(failing.key, { amount: 5_000 }),
      await created(returning.key, { amount: 5_000 })
    ]

    // Handed over at `sent`: processing, the rail's answer not in yet.
    const sent = new Date()
    await sweepAllAt(app, sent)
    for (const [{ key }, { id }] of [
      [paying, paid],
      [failing, failed],
      [returning, returned]
    ] as const) {
      expect((await getWithdrawal(app, key, id)).body).toMatchObject({
        status: "processing",
        rail: null,
        paid_at: null,
        updated_at: timestampOf(sent)
      })
    }
    // Cancel is for pending ones only.
    const late = await cancel(app, paying.key, paid.id)
    expect([late.status, late.body.code]).toEqual([409, "invalid_state"])

    // Looked at again 5 s on: the sandbox paid them 3 s after they were handed over, but for the 0000 account.
    await sweepAllAt(app, secondsAfter(sent, 5))
    const paidAt = timestampOf(secondsAfter(sent, 3))
    const settled = (await getWithdrawal(app, paying.key, paid.id)).body
    expect(settled).toEqual({
      ...paid,
      status: "paid",
      rail: "pix",
      end_to_end_id: expect.stringMatching(/^E\d{8}\d{12}[0-9A-Z]{11}$/),
      paid_at: paidAt,
      updated_at: timestampOf(secondsAfter(sent, 5))
    })
    // The end-to-end id names the minute it was paid, in UTC.
    expect(settled.end_to_end_id.slice(9, 21)).toBe(paidAt.slice(0, 16).replace(/[-T:]/g, ""))
    expect(await available(app, paying.key)).toBe(9_801 - 5_367)
    expect((await getWithdrawal(app, failing.key, failed.id)).body).toMatchObject({
      status: "failed",
      failure_reason: "account_not_found",
      rail: null,
      paid_at: null
    })
    expect(await available(app, failing.key)).toBe(9_801)
    expect(await ledgerAvailable(app, failing.companyId)).toBe(9_801)
    expect((await withdrawalEntries(app, failing.key))[0]).toEqual([
      "withdrawal_reversal",
      "credit",
      5_367,
      "pix",
      failed.id
    ])
    expect((await getWithdrawal(app, returning.key, returned.id)).body).toMatchObject({ status: "paid" })
    expect(await available(app, returning.key)).toBe(9_801 - 5_367)

    // 10 s on, the 1111 account's bank has returned it: failed after paid, its money back; the paid one stays paid.
    await sweepAllAt(app, secondsAfter(sent, 10))
    expect((await getWithdrawal(app, returning.key, returned.id)).body).toMatchObject({
      status: "failed",
      failure_reason: "returned_by_bank",
      rail: "pix",
      paid_at: timestampOf(secondsAfter(sent, 3))
    })
    expect(await available(app, returning.key)).toBe(9_801)
    expect((await getWithdrawal(app, paying.key, paid.id)).body).toEqual(settled)
    expect(await available(app, paying.key)).toBe(9_801 - 5_367)

    const story = async (key: string) =>
      (await withdrawalEvents(app, key)).map((event) => [event.type, event.data.status, event.data.id])
    expect(await story(paying.key)).toEqual([
      ["withdrawal.created", "pending", paid.id],
      ["withdrawal.processing", "processing", paid.id],
      ["withdrawal.paid", "paid", paid.id]
    ])
    expect(await story(failing.key)).toEqual([
      ["withdrawal.created", "pending", failed.id],
      ["withdrawal.processing", "processing", failed.id],
      ["withdrawal.failed", "failed", failed.id]
    ])
    expect(await story(returning.key)).toEqual([
      ["withdrawal.created", "pending", returned.id],
      ["withdrawal.processing", "processing", returned.id],
      ["withdrawal.paid", "paid", returned.id],
      ["withdrawal.failed", "failed", returned.id]
    ])
    const failedEvent = (await withdrawalEvents(app, failing.key)).at(-1) as unknown as Record<string, unknown>
    expect(failedEvent).toMatchObject({ reason: "account_not_found", livemode: false })

    // The endpoint subscribed to withdrawal.* gets the paying company's three, signed; no invoice's.
    await app.deliverPostbacksAt(secondsAfter(sent, 11))
    const arrivals = receiver.at("/withdrawals")
    expect(arrivals.map((arrival) => arrival.headers["x-fatura-event-type"]).sort()).toEqual([
      "withdrawal.created",
      "withdrawal.paid",
      "withdrawal.processing"
    ])
    for (const arrival of arrivals) {
      const signature = String(arrival.headers["x-fatura-signature"])
      const event = await Postback.verifyPostback({
        body: arrival.body,
        signature,
        secret: paying.webhookSecret,
        now: Number(/t=(\d+)/.exec(signature)![1])
      })
      expect(event).toMatchObject({ type: arrival.headers["x-fatura-event-type"], data: { id: paid.id } })
    }
  })
})
