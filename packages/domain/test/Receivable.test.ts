// Examples of a payment's receivables: how Receivable.schedule dates and divides them, how takeBack takes a refund
// or a chargeback from them, and how settle makes one available.
import { describe, expect, it } from "@effect/vitest"
import {
  type BusinessCalendar,
  Cents,
  FeePlan,
  type Ledger,
  type PaymentMethod,
  Receivable,
  type Timestamp
} from "../src/index.js"
import { netOf, receivable, waitingOf } from "./support/Receivables.js"

const plan = FeePlan.defaultFeePlan
const instant = (text: string) => text as Timestamp.Timestamp
const day = (text: string) => text as BusinessCalendar.CalendarDate

const entry = (
  type: Ledger.EntryType,
  direction: Ledger.Direction,
  amount: number,
  balance: PaymentMethod.BalanceKind,
  bucket: Ledger.Bucket
): Ledger.Entry => ({ type, direction, amount: Cents.make(amount), balance, bucket })

const taken = (installment: number, amount: number, status: Receivable.Status, paymentDate: string) =>
  receivable({ installment, amount: -amount, fee: 0, balance: "card", status, paymentDate })

// Card: 10 000 in 3 installments with a fee of 538, paid on Wednesday 2026-11-25 (noon in São Paulo). Day 30 is
// Christmas, a Friday: Monday 2026-12-28. Day 60 is Sunday 2027-01-24: Monday 2027-01-25. Day 90 is Tuesday
// 2027-02-23, two weeks after Carnival (8–9 February 2027).
const cardPaidAt = instant("2026-11-25T15:00:00.000000Z")
const card = Receivable.schedule(plan, {
  method: "credit_card",
  installments: 3,
  amount: Cents.make(10_000),
  fee: Cents.make(538),
  paidAt: cardPaidAt
})
const cardSchedule = [
  receivable({
    installment: 1,
    amount: 3_334,
    fee: 180,
    balance: "card",
    status: "waiting_funds",
    paymentDate: "2026-12-28"
  }),
  receivable({
    installment: 2,
    amount: 3_333,
    fee: 179,
    balance: "card",
    status: "waiting_funds",
    paymentDate: "2027-01-25"
  }),
  receivable({
    installment: 3,
    amount: 3_333,
    fee: 179,
    balance: "card",
    status: "waiting_funds",
    paymentDate: "2027-02-23"
  })
]
const nextDay = instant("2026-11-26T15:00:00.000000Z")

describe("Receivable.schedule", () => {
  it("makes a pix available the moment it is paid, even on a Saturday", () => {
    const pix = { method: "pix", installments: 1, amount: Cents.make(10_000), fee: Cents.make(199) } as const
    const scheduled = Receivable.schedule(plan, { ...pix, paidAt: instant("2026-11-28T15:00:00.000000Z") })
    expect(scheduled.receivables).toEqual([
      receivable({
        installment: 1,
        amount: 10_000,
        fee: 199,
        balance: "pix",
        status: "available",
        paymentDate: "2026-11-28"
      })
    ])
    expect(scheduled.movements).toEqual([
      entry("payment", "credit", 10_000, "pix", "available"),
      entry("fee", "debit", 199, "pix", "available")
    ])
    // 23:30 on Saturday in São Paulo is Sunday in UTC: the pix is dated on the Saturday.
    const lateOnSaturday = Receivable.schedule(plan, { ...pix, paidAt: instant("2026-11-29T02:30:00.000000Z") })
    expect(lateOnSaturday.receivables.map((r) => r.paymentDate)).toEqual(["2026-11-28"])
  })

  it("makes a boleto available the next business day, past Good Friday and the weekend", () => {
    const boleto = { method: "bank_slip", installments: 1, amount: Cents.make(10_000), fee: Cents.make(349) } as const
    // Paid on Thursday 2026-04-02: day 1 is Good Friday, then Saturday and Sunday.
    const scheduled = Receivable.schedule(plan, { ...boleto, paidAt: instant("2026-04-02T15:00:00.000000Z") })
    expect(scheduled.receivables).toEqual([
      receivable({
        installment: 1,
        amount: 10_000,
        fee: 349,
        balance: "bank_slip",
        status: "waiting_funds",
        paymentDate: "2026-04-06"
      })
    ])
    expect(scheduled.movements).toEqual([
      entry("payment", "credit", 10_000, "bank_slip", "waiting"),
      entry("fee", "debit", 349, "bank_slip", "waiting")
    ])
    // Paid on Good Friday itself (noon in São Paulo): day 1 is Saturday, so Monday.
    const onHoliday = Receivable.schedule(plan, { ...boleto, paidAt: instant("2026-04-03T12:00:00.000000Z") })
    expect(onHoliday.receivables.map((r) => r.paymentDate)).toEqual(["2026-04-06"])
    // 23:30 on Tuesday 2026-03-31 in São Paulo, already 1 April in UTC: available on Wednesday 1 April.
    const lateOnTuesday = Receivable.schedule(plan, { ...boleto, paidAt: instant("2026-04-01T02:30:00.000000Z") })
    expect(lateOnTuesday.receivables.map((r) => r.paymentDate)).toEqual(["2026-04-01"])
  })

  it("divides a card payment over its installments, 30 days apart, each on a business day", () => {
    expect(card.receivables).toEqual(cardSchedule)
    expect(card.receivables.map((r) => r.netAmount)).toEqual([3_154, 3_154, 3_154])
    expect(card.movements).toEqual([
      entry("payment", "credit", 10_000, "card", "waiting"),
      entry("fee", "debit", 538, "card", "waiting")
    ])
  })

  it("follows the days of a company's own plan: a card of 0 days is available at once", () => {
    const atOnce = { settlementDays: { ...plan.settlementDays, credit_card: 0 } }
    const scheduled = Receivable.schedule(atOnce, {
      method: "credit_card",
      installments: 3,
      amount: Cents.make(10_000),
      fee: Cents.make(538),
      paidAt: cardPaidAt
    })
    expect(scheduled.receivables).toEqual(
      cardSchedule.map((r) => ({
        ...r,
        status: "available",
        paymentDate: "2026-11-25",
        originalPaymentDate: "2026-11-25"
      }))
    )
    expect(scheduled.movements).toEqual([
      entry("payment", "credit", 10_000, "card", "available"),
      entry("fee", "debit", 538, "card", "available")
    ])
    // A pix of 2 days waits, and moves off the weekend: paid Wednesday, Friday 2026-11-27.
    const slowPix = Receivable.schedule(
      { settlementDays: { ...plan.settlementDays, pix: 2 } },
      { method: "pix", installments: 1, amount: Cents.make(10_000), fee: Cents.make(199), paidAt: cardPaidAt }
    )
    expect(slowPix.receivables).toMatchObject([{ status: "waiting_funds", paymentDate: "2026-11-27" }])
    // Installments are a card's alone: a pix asked in 3 is one receivable.
    const pixInThree = Receivable.schedule(plan, {
      method: "pix",
      installments: 3,
      amount: Cents.make(10_000),
      fee: Cents.make(199),
      paidAt: cardPaidAt
    })
    expect(pixInThree.receivables).toHaveLength(1)
  })

  it("part: ⌊x / n⌋ each, the remainder on the first; dueDate: k times the days, on a business day", () => {
    expect([1, 2, 3].map((k) => Receivable.part(538, 3, k))).toEqual([180, 179, 179])
    expect([1, 2, 3, 4].map((k) => Receivable.part(7, 4, k))).toEqual([4, 1, 1, 1])
    expect(Receivable.part(5, 1, 1)).toBe(5)
    expect(Receivable.dueDate(day("2026-11-28"), 0, 1)).toBe("2026-11-28")
    expect(Receivable.dueDate(day("2026-11-28"), 1, 1)).toBe("2026-11-30")
    expect(Receivable.dueDate(day("2026-11-25"), 30, 2)).toBe("2027-01-25")
  })
})

describe("Receivable.takeBack", () => {
  const refund4k = Receivable.takeBack("refund", "credit_card", card.receivables, Cents.make(4_000), nextDay)

  it("takes a refund from the latest installment first", () => {
    expect(refund4k.waiting).toBe(10_000 - 538)
    expect(refund4k.fromWaiting).toBe(4_000)
    expect(refund4k.fromAvailable).toBe(0)
    expect(refund4k.receivables).toEqual([
      taken(3, 3_154, "waiting_funds", "2027-02-23"),
      taken(2, 846, "waiting_funds", "2027-01-25")
    ])
    expect(refund4k.movements).toEqual([entry("refund", "debit", 4_000, "card", "waiting")])
  })

  it("takes what the waiting receivables do not cover from the available balance, today", () => {
    const after = [...card.receivables, ...refund4k.receivables]
    // 2 308 still waits on installment 2 and 3 154 on installment 1: 538 is left for the available balance.
    const rest = Receivable.takeBack("refund", "credit_card", after, Cents.make(6_000), nextDay)
    expect(rest.fromWaiting).toBe(5_462)
    expect(rest.fromAvailable).toBe(538)
    expect(rest.receivables).toEqual([
      taken(2, 2_308, "waiting_funds", "2027-01-25"),
      taken(1, 3_154, "waiting_funds", "2026-12-28"),
      taken(1, 538, "available", "2026-11-26")
    ])
    expect(rest.movements).toEqual([
      entry("refund", "debit", 5_462, "card", "waiting"),
      entry("refund", "debit", 538, "card", "available")
    ])
    // Refunded in full, the invoice's schedule adds up to minus its fee: fees are not returned.
    expect(netOf([...after, ...rest.receivables])).toBe(-538)
    for (const installment of [1, 2, 3]) expect(waitingOf([...after, ...rest.receivables], installment)).toBe(0)
  })

  it("charges back what a partial refund left, from the waiting receivables first", () => {
    const after = [...card.receivables, ...refund4k.receivables]
    const chargedBack = Receivable.takeBack("chargeback", "credit_card", after, Cents.make(6_000), nextDay)
    expect(chargedBack).toMatchObject({ fromWaiting: 5_462, fromAvailable: 538 })
    expect(chargedBack.movements).toEqual([
      entry("chargeback", "debit", 5_462, "card", "waiting"),
      entry("chargeback", "debit", 538, "card", "available")
    ])
  })

  it("takes nothing from an installment already available: its part comes from the available balance", () => {
    // Installment 1 fell due on 2026-12-28; a refund of 9 000 on 2027-01-04 finds 6 308 waiting on 2 and 3.
    const settled = card.receivables.map((r) => (r.installment === 1 ? { ...r, status: "available" as const } : r))
    const refund = Receivable.takeBack(
      "refund",
      "credit_card",
      settled,
      Cents.make(9_000),
      instant("2027-01-04T15:00:00.000000Z")
    )
    expect(refund).toMatchObject({ fromWaiting: 6_308, fromAvailable: 2_692 })
    expect(refund.receivables).toEqual([
      taken(3, 3_154, "waiting_funds", "2027-02-23"),
      taken(2, 3_154, "waiting_funds", "2027-01-25"),
      taken(1, 2_692, "available", "2027-01-04")
    ])
  })

  it("writes what it takes from the available balance on the latest installment already available", () => {
    const settled = card.receivables.map((r) => (r.installment < 3 ? { ...r, status: "available" as const } : r))
    const refund = Receivable.takeBack(
      "refund",
      "credit_card",
      settled,
      Cents.make(5_000),
      instant("2027-02-01T15:00:00.000000Z")
    )
    expect(refund.receivables).toEqual([
      taken(3, 3_154, "waiting_funds", "2027-02-23"),
      taken(2, 1_846, "available", "2027-02-01")
    ])
  })

  it("takes a pix refund from the available balance alone", () => {
    const pix = Receivable.schedule(plan, {
      method: "pix",
      installments: 1,
      amount: Cents.make(10_000),
      fee: Cents.make(199),
      paidAt: cardPaidAt
    })
    const refund = Receivable.takeBack("refund", "pix", pix.receivables, Cents.make(2_500), nextDay)
    expect(refund).toEqual({
      waiting: 0,
      fromWaiting: 0,
      fromAvailable: 2_500,
      receivables: [
        receivable({
          installment: 1,
          amount: -2_500,
          fee: 0,
          balance: "pix",
          status: "available",
          paymentDate: "2026-11-26"
        })
      ],
      movements: [entry("refund", "debit", 2_500, "pix", "available")]
    })
  })

  it("giveBack: a refused refund's amount comes back to the available balance, today, when it took nothing waiting", () => {
    expect(Receivable.giveBack("pix", [], Cents.make(2_500), nextDay)).toEqual({
      receivables: [
        receivable({
          installment: 1,
          amount: 2_500,
          fee: 0,
          balance: "pix",
          status: "available",
          paymentDate: "2026-11-26"
        })
      ],
      movements: [entry("refund_reversal", "credit", 2_500, "pix", "available")]
    })
  })

  it("giveBack: what a refund took from installments that still wait goes back to them, on their days", () => {
    // A pix on a plan that holds pix two days: 9 801 waits until the 27th; a refund of 2 500 took from it, and 1 000
    // of another refund from the available balance.
    const waiting = receivable({
      installment: 1,
      amount: 10_000,
      fee: 199,
      balance: "pix",
      status: "waiting_funds",
      paymentDate: "2026-11-27"
    })
    const took = receivable({
      installment: 1,
      amount: -2_500,
      fee: 0,
      balance: "pix",
      status: "waiting_funds",
      paymentDate: "2026-11-27"
    })
    const fromAvailable = receivable({
      installment: 1,
      amount: -1_000,
      fee: 0,
      balance: "pix",
      status: "available",
      paymentDate: "2026-11-25"
    })
    expect(Receivable.giveBack("pix", [waiting, took, fromAvailable], Cents.make(3_000), nextDay)).toEqual({
      receivables: [
        receivable({
          installment: 1,
          amount: 2_500,
          fee: 0,
          balance: "pix",
          status: "waiting_funds",
          paymentDate: "2026-11-27"
        }),
        receivable({
          installment: 1,
          amount: 500,
          fee: 0,
          balance: "pix",
          status: "available",
          paymentDate: "2026-11-26"
        })
      ],
      movements: [
        entry("refund_reversal", "credit", 2_500, "pix", "waiting"),
        entry("refund_reversal", "credit", 500, "pix", "available")
      ]
    })
  })
})

describe("Receivable.settle", () => {
  const stored = (fields: Receivable.NewReceivable): Receivable.Receivable => ({ ...fields, id: 7 })
  const [first] = cardSchedule as [Receivable.NewReceivable]

  it("moves a falling due receivable's net from waiting to available, on its day", () => {
    expect(Receivable.settle(stored(first), day("2026-12-28"))).toEqual({
      receivable: stored(first),
      paymentDate: "2026-12-28",
      movements: [
        entry("settlement", "debit", 3_154, "card", "waiting"),
        entry("settlement", "credit", 3_154, "card", "available")
      ]
    })
    // A sweep that runs late keeps the receivable's own day.
    expect(Receivable.settle(stored(first), day("2026-12-30")).paymentDate).toBe("2026-12-28")
  })

  it("moves a negative receivable the other way, and writes nothing for a net of 0", () => {
    expect(
      Receivable.settle(stored(taken(1, 846, "waiting_funds", "2026-12-28")), day("2026-12-28")).movements
    ).toEqual([
      entry("settlement", "debit", 846, "card", "available"),
      entry("settlement", "credit", 846, "card", "waiting")
    ])
    const nothing = stored({ ...first, amount: 180, fee: 180, netAmount: 0 })
    expect(Receivable.settle(nothing, day("2026-12-28")).movements).toEqual([])
  })

  it("dates a receivable released early on the day of its release", () => {
    expect(Receivable.settle(stored(first), day("2026-11-26"))).toMatchObject({
      paymentDate: "2026-11-26",
      movements: [
        { bucket: "waiting", amount: 3_154 },
        { bucket: "available", amount: 3_154 }
      ]
    })
  })

  it("isDue: a waiting receivable whose day has come; bucketOf: only waiting_funds waits", () => {
    expect(Receivable.isDue(first, day("2026-12-27"))).toBe(false)
    expect(Receivable.isDue(first, day("2026-12-28"))).toBe(true)
    expect(Receivable.isDue(first, day("2027-01-05"))).toBe(true)
    expect(Receivable.isDue({ ...first, status: "available" }, day("2027-01-05"))).toBe(false)
    expect(Receivable.isDue({ ...first, status: "anticipated" }, day("2027-01-05"))).toBe(false)
    expect(Receivable.bucketOf("waiting_funds")).toBe("waiting")
    expect(Receivable.bucketOf("available")).toBe("available")
    expect(Receivable.bucketOf("anticipated")).toBe("available")
  })
})
