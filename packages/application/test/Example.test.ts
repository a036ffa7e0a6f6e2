// The README's example, run as a consumer runs it: through the package's own name, from its build.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { refundedSale } from "../examples/RefundInMemory.js"

describe("examples/RefundInMemory.ts", () => {
  it.effect("sells by pix, pays, refunds R$ 30,00 and keeps the rest of the sale net of its fee", () =>
    Effect.gen(function* () {
      expect(yield* refundedSale).toEqual({
        status: "partially_refunded",
        refundedAmount: 3_000,
        // 10 000 paid, less the 1.99% pix fee (199), less the refund.
        pixBalance: 10_000 - 199 - 3_000
      })
    })
  )
})
