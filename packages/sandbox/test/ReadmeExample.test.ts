// The README's example, run as its reader would run it: a program of its own that imports the built packages by name.
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const run = promisify(execFile)
const example = new URL("../examples/TestCards.ts", import.meta.url).pathname

describe("the README's example", () => {
  it("answers each test card as listed, approves any other number, charges and gives back a reference once and refuses live mode", async () => {
    const { stdout } = await run(process.execPath, [example])
    expect(stdout.trim().split("\n")).toEqual([
      "4111111111111111  approved",
      "4000000000000002  refused: card_declined",
      "4000000000009995  refused: insufficient_funds",
      "4000000000000069  refused: expired_card",
      "4000000000000119  refused: processing_error",
      "4000002760003184  refused: authentication_required",
      "4000002760003184  approved (3-D Secure authenticated)",
      "order-4000000000000002 again with another card: refused: card_declined",
      "lookup of order-lost: Void",
      "order-lost arriving after it: refused: processing_error",
      "reversal of order-4111111111111111: none",
      "reverse order-4111111111111111: Voided, again: Voided",
      "reversal of order-4111111111111111: Voided",
      "reverse order-unsent: Voided",
      "order-unsent arriving after it: refused: processing_error",
      "live mode: no acquirer is configured for live card payments"
    ])
    // A process of its own, which loads effect and the packages: seconds on a busy machine.
  }, 60_000)
})
