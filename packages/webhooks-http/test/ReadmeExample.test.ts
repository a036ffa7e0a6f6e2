// The README's example, run as its reader would run it: a program of its own that imports the built packages by name.
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const run = promisify(execFile)
const example = new URL("../examples/SendAndCheck.ts", import.meta.url).pathname

describe("the README's example", () => {
  it("accepts only public targets, and sends a postback signed as Postback.sign signs it", async () => {
    const { stdout } = await run(process.execPath, [example])
    expect(stdout.trim().split("\n")).toEqual([
      "https://93.184.215.14/postbacks  accepted, sent only to 93.184.215.14",
      "https://10.0.0.1/postbacks  refused: is a private address (10.0.0.1)",
      "http://127.0.0.1:8080/postbacks  refused: is a loopback address (127.0.0.1)",
      "ftp://merchant.example/postbacks  refused: only http and https URLs",
      "answered 204",
      "x-fatura-event-id: evt_1",
      "x-fatura-event-type: invoice.paid",
      "x-fatura-signature, as Postback.sign writes it: true"
    ])
    // A process of its own, which loads effect and the packages: seconds on a busy machine.
  }, 60_000)
})
