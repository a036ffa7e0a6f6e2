// The contracts of the ports a bank's files rely on (SPEC 15): a boleto's registration queued with its invoice, taken
// into a remessa, given back when the bank refuses the file, set as the bank says and shown by the invoice; the files
// (a remessa's number never used twice, a remessa known unsent until marked, a retorno recorded once); the attempts
// of a withdrawal's payment, queued once per withdrawal, taken, settled, tried again by another form; and, for hybrid
// boletos, the bank's payment kept once, a boleto withdrawn (never sent, or written off), and the pix charges to remove.
import { expect } from "@effect/vitest"
import {
  BankFileRepository,
  BankPayoutRepository,
  BoletoRegistrationRepository,
  InvoiceRepository,
  PixChargeRemovalRepository,
  Transactions,
  WithdrawalRepository
} from "@fatura/application"
import { BankAccount, Cents, type Company, Withdrawal } from "@fatura/domain"
import { Effect, Option, Result } from "effect"
import { aCompany, anInvoice, at } from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

/** A boleto invoice whose registration a bank is to make, queued as the create does: in its transaction. */
const aQueuedBoleto = (company: Company.Company, seconds = 0) =>
  Effect.flatMap(Transactions, (transactions) =>
    transactions.withTransaction(
      Effect.gen(function* () {
        const invoice = yield* anInvoice(company, { method: "bank_slip" })
        yield* (yield* BoletoRegistrationRepository).queue(invoice, at(seconds))
        return invoice
      })
    )
  )

const bank = Result.getOrThrow(
  BankAccount.parse({ bankCode: "001", agency: "1234", account: "5678901", digit: "2", type: "corrente" })
)

let made = 0

/** A stored withdrawal of `company`, for payouts to belong to. */
const aWithdrawal = (company: Company.Company) =>
  Effect.gen(function* () {
    made += 1
    const fee = Cents.make(367)
    const withdrawal: Withdrawal.Withdrawal = {
      id: `wd_bank-${process.pid}-${made}`,
      companyId: company.id,
      mode: "test",
      amount: Cents.make(10_000),
      fee,
      status: "processing",
      sources: [{ balance: "pix", amount: Cents.make(10_367) }],
      destination: { bank, holderName: company.corporateReason, holderDocument: company.cnpj },
      rail: null,
      endToEndId: null,
      failureReason: null,
      createdAt: at(0),
      updatedAt: at(0),
      sentAt: at(0),
      paidAt: null
    }
    yield* (yield* WithdrawalRepository).insert(withdrawal, Withdrawal.onRequested(withdrawal.sources, fee))
    return withdrawal
  })

export const bankRepositoriesContract: Contract = (it) => {
  it.effect("queues a boleto's registration with its invoice, which shows it pending until the bank says", () =>
    Effect.gen(function* () {
      const registrations = yield* BoletoRegistrationRepository
      const invoices = yield* InvoiceRepository
      const company = yield* aCompany()
      const first = yield* aQueuedBoleto(company)
      const second = yield* aQueuedBoleto(company)
      // The sandbox's boletos are never queued: registered at once.
      const sandbox = yield* anInvoice(company, { method: "bank_slip" })
      expect(Option.getOrThrow(yield* invoices.findById(sandbox.id)).boleto?.registration).toBe("registered")
      expect(Option.getOrThrow(yield* invoices.findById(first.id)).boleto?.registration).toBe("pending")

      const queued = (yield* registrations.queued(100)).filter((invoice) => invoice.companyId === company.id)
      expect(queued.map((invoice) => invoice.id)).toEqual([first.id, second.id])
      expect(queued[0]).toEqual(Option.getOrThrow(yield* invoices.findById(first.id)))

      yield* registrations.assign([first.id, second.id], "CB000001.REM", at(1))
      expect((yield* registrations.queued(100)).filter((invoice) => invoice.companyId === company.id)).toEqual([])
      expect(yield* registrations.findByOurNumber(first.boleto!.ourNumber)).toEqual(
        Option.some({
          invoiceId: first.id,
          ourNumber: first.boleto!.ourNumber,
          status: "pending",
          remessa: "CB000001.REM",
          paidAmount: null
        })
      )

      yield* registrations.set(first.id, "registered", at(2))
      expect(Option.getOrThrow(yield* invoices.findById(first.id)).boleto?.registration).toBe("registered")
      // A refused file gives back only what is still pending.
      expect(yield* registrations.release("CB000001.REM", at(3))).toBe(1)
      expect((yield* registrations.queued(100)).map((invoice) => invoice.id)).toContain(second.id)
      expect(Option.isNone(yield* registrations.findByOurNumber("999999999999"))).toBe(true)
    })
  )

  it.effect("keeps the bank's payment once, and withdraws a boleto: unsent leaves the queue, sent is written off", () =>
    Effect.gen(function* () {
      const registrations = yield* BoletoRegistrationRepository
      const company = yield* aCompany()
      const mine = (invoices: ReadonlyArray<{ readonly id: number; readonly companyId: number }>) =>
        invoices.filter((invoice) => invoice.companyId === company.id).map((invoice) => invoice.id)
      const sent = yield* aQueuedBoleto(company)
      const unsent = yield* aQueuedBoleto(company)
      const remessa = `CB${company.id}.REM`
      yield* registrations.assign([sent.id], remessa, at(1))

      expect(yield* registrations.recordBankPayment(sent.id, Cents.make(9_500), at(2))).toBe(true)
      expect(yield* registrations.recordBankPayment(sent.id, Cents.make(9_500), at(3))).toBe(false)
      expect(Option.getOrThrow(yield* registrations.findByOurNumber(sent.boleto!.ourNumber)).paidAmount).toBe(9_500)

      for (const invoice of [sent, unsent, sent]) yield* registrations.withdraw(invoice.id, at(4))
      expect(mine(yield* registrations.queued(1_000))).toEqual([])
      expect(mine(yield* registrations.queuedWriteOffs(1_000))).toEqual([sent.id])
      const writeOff = `CB${company.id}W.REM`
      yield* registrations.assignWriteOffs([sent.id], writeOff, at(5))
      expect(mine(yield* registrations.queuedWriteOffs(1_000))).toEqual([])
      // The write-off's remessa refused whole: it goes in the next one.
      expect(yield* registrations.release(writeOff, at(6))).toBe(1)
      expect(mine(yield* registrations.queuedWriteOffs(1_000))).toEqual([sent.id])
      // The registration's own remessa refused whole: the bank never had the boleto, so neither goes.
      yield* registrations.release(remessa, at(7))
      expect(mine(yield* registrations.queued(1_000))).toEqual([])
      expect(mine(yield* registrations.queuedWriteOffs(1_000))).toEqual([])
    })
  )

  it.effect("queues a pix charge's removal once, lists it oldest first until it is done", () =>
    Effect.gen(function* () {
      const removals = yield* PixChargeRemovalRepository
      const company = yield* aCompany()
      const first = yield* anInvoice(company, { method: "bank_slip" })
      const second = yield* anInvoice(company, { method: "bank_slip" })
      const txid = (invoice: { readonly id: number }) => `hybrid${company.id}x${invoice.id}`.padEnd(26, "0")
      yield* removals.queue({ txid: txid(second), invoiceId: second.id }, at(2))
      yield* removals.queue({ txid: txid(first), invoiceId: first.id }, at(1))
      yield* removals.queue({ txid: txid(first), invoiceId: first.id }, at(3))
      const mine = Effect.map(removals.pending(1_000), (pending) =>
        pending.filter((removal) => removal.txid.startsWith(`hybrid${company.id}x`))
      )
      expect(yield* mine).toEqual([
        { txid: txid(first), invoiceId: first.id },
        { txid: txid(second), invoiceId: second.id }
      ])
      yield* removals.markDone(txid(first), at(4))
      yield* removals.markDone(txid(first), at(5))
      expect(yield* mine).toEqual([{ txid: txid(second), invoiceId: second.id }])
    })
  )

  it.effect("numbers remessas without repeating, keeps them unsent until marked, and records a retorno once", () =>
    Effect.gen(function* () {
      const files = yield* BankFileRepository
      const first = yield* files.nextSequence
      const second = yield* files.nextSequence
      expect(second).toBeGreaterThan(first)
      const name = `CB${String(first).padStart(6, "0")}-${process.pid}-${Math.random()}.REM`
      yield* files.recordRemessa({ name, service: "cobranca", sequence: first, content: "a\r\n", createdAt: at(0) })
      expect((yield* files.unsent).filter((file) => file.name === name)).toEqual([
        { name, service: "cobranca", sequence: first, content: "a\r\n", createdAt: at(0) }
      ])
      yield* files.markSent(name, at(1))
      expect((yield* files.unsent).filter((file) => file.name === name)).toEqual([])

      const retorno = `RET-${process.pid}-${Math.random()}`
      expect(yield* files.isRead(retorno)).toBe(false)
      expect(yield* files.recordRead({ name: retorno, service: "cobranca", content: "b" }, at(2))).toBe(true)
      expect(yield* files.recordRead({ name: retorno, service: "cobranca", content: "b" }, at(3))).toBe(false)
      expect(yield* files.isRead(retorno)).toBe(true)
    })
  )

  it.effect("queues a withdrawal's payment once, takes it, settles it, and tries it again by another form", () =>
    Effect.gen(function* () {
      const payouts = yield* BankPayoutRepository
      const company = yield* aCompany()
      const withdrawal = yield* aWithdrawal(company)
      const payout = {
        withdrawalId: withdrawal.id,
        form: "pix" as const,
        amount: 10_000,
        destination: withdrawal.destination
      }
      const queued = yield* payouts.enqueue(payout, at(0))
      expect(queued).toMatchObject({
        withdrawalId: withdrawal.id,
        attempt: 1,
        form: "pix",
        status: "queued",
        remessa: null
      })
      expect(queued.reference).toMatch(/^WD\d{18}$/)
      expect(queued.destination).toEqual(withdrawal.destination)
      expect(yield* payouts.enqueue(payout, at(1))).toEqual(queued)
      expect((yield* payouts.queued(1000)).map((one) => one.reference)).toContain(queued.reference)

      yield* payouts.assign([queued.reference], "PG000002.REM", at(2))
      expect((yield* payouts.queued(1000)).map((one) => one.reference)).not.toContain(queued.reference)
      yield* payouts.settle(queued.reference, { status: "failed", occurrences: ["PC", "AN"] }, at(3))
      const retried = yield* payouts.retry(withdrawal.id, "ted", at(4))
      expect(retried).toMatchObject({ attempt: 2, form: "ted", status: "queued", amount: 10_000 })
      expect(retried.reference).not.toBe(queued.reference)
      expect(Option.getOrThrow(yield* payouts.latest(withdrawal.id)).reference).toBe(retried.reference)
      expect(Option.getOrThrow(yield* payouts.findByReference(queued.reference))).toMatchObject({
        status: "failed",
        occurrences: ["PC", "AN"]
      })

      yield* payouts.assign([retried.reference], "PG000003.REM", at(5))
      yield* payouts.settle(retried.reference, { status: "paid", occurrences: ["00"], paidOn: "2026-03-02" }, at(6))
      expect(Option.getOrThrow(yield* payouts.latest(withdrawal.id))).toMatchObject({
        status: "paid",
        paidOn: "2026-03-02",
        endToEndId: null
      })
      // A refused remessa gives back only what is still queued.
      expect(yield* payouts.release("PG000003.REM", at(7))).toBe(0)
    })
  )
}
