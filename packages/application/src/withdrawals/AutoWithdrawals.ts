// Automatic withdrawals (SPEC 13.4): once a day, each company whose schedule falls on that business day withdraws,
// in each mode a rail pays, the whole of its available balances less the fee, when that is at least R$ 10,00. A
// company is taken once a day whatever it then does, so a sweep run twice withdraws nothing more.
import { AutoWithdrawal, BusinessCalendar, Cents, Company, type Invoice } from "@fatura/domain"
import { Context, type Duration, Effect, Layer, Schedule } from "effect"
import { CompanyRepository } from "../companies/CompanyRepository.js"
import * as Clock from "../platform/Clock.js"
import type { StorageUnavailable } from "../platform/Failures.js"
import { PayoutRail } from "./PayoutRail.js"
import { Withdrawals } from "./Withdrawals.js"

const batchSize = 50

const modes: ReadonlyArray<Invoice.Mode> = ["test", "live"]

export class AutoWithdrawals extends Context.Service<
  AutoWithdrawals,
  {
    /** Withdraws for every company due today; returns how many withdrawals it asked for. */
    readonly sweep: Effect.Effect<number, StorageUnavailable>
    /** Sweeps every `interval` for ever; a failed sweep is logged and tried again at the next tick. */
    readonly run: (interval: Duration.Input) => Effect.Effect<never>
  }
>()("@fatura/application/AutoWithdrawals") {
  static readonly layer = Layer.effect(
    AutoWithdrawals,
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const withdrawals = yield* Withdrawals
      const rail = yield* PayoutRail

      /** The company's automatic withdrawal in `mode`, if it is due one: refusals (a block, no account) are logged. */
      const withdrawIn = (company: Company.Company, mode: Invoice.Mode) =>
        Effect.gen(function* () {
          const now = yield* Clock.now
          const totals = yield* companies.totals(company.id, mode, now)
          const available = ["pix", "bank_slip", "card"] as const
          const total = available.reduce((sum, kind) => sum + Math.max(0, Company.availableOf(totals, kind)), 0)
          const amount = AutoWithdrawal.amountOf(total, company.feePlan.withdrawalFee)
          if (amount === null) return 0
          return yield* withdrawals
            .request({ companyId: company.id, mode }, { amount: Cents.make(amount), balance: null })
            .pipe(
              Effect.as(1),
              Effect.catchTags({
                CompanyBlocked: () => Effect.succeed(0),
                BankAccountMissing: () => Effect.succeed(0),
                PayoutUnavailable: () => Effect.succeed(0),
                // Spent meanwhile by a refund or a withdrawal of its own: nothing to take out today.
                InsufficientFunds: () => Effect.succeed(0)
              })
            )
        })

      const sweep = Effect.gen(function* () {
        const today = BusinessCalendar.saoPauloDate(yield* Clock.now)
        let asked = 0
        while (true) {
          const claimed = yield* companies.claimAutoWithdrawals(today, batchSize)
          for (const company of claimed) {
            if (!AutoWithdrawal.isDue(company.autoWithdrawal, today)) continue
            for (const mode of modes) {
              const paid = yield* Effect.result(rail.available(mode))
              if (paid._tag === "Success") asked += yield* withdrawIn(company, mode)
            }
          }
          if (claimed.length < batchSize) return asked
        }
      }).pipe(Effect.withSpan("AutoWithdrawals.sweep"))

      const run = (interval: Duration.Input) =>
        sweep.pipe(
          Effect.tap((asked) =>
            asked > 0 ? Effect.logInfo("automatic withdrawals asked for", { asked }) : Effect.void
          ),
          Effect.catchCause((cause) => Effect.logWarning("automatic withdrawal sweep failed", cause)),
          Effect.repeat(Schedule.spaced(interval)),
          Effect.andThen(Effect.never)
        )

      return AutoWithdrawals.of({ sweep, run })
    })
  )
}
