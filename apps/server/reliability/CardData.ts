// SPEC 6.3 and 11.2 after everything above: every table of every database the suite made (events and postback
// attempts included), and everything every process printed, hold none of the card numbers or security codes the
// suite sent — a number in any of the forms it is written, a code as a string anywhere and as a number under the names
// a card's code goes by.
import { describe, expect, it } from "vitest"
import { connect, databases } from "./support/Cluster.js"
import { sentCards } from "./support/Journal.js"
import { printed } from "./support/Service.js"

const forms = (number: string) => [
  number,
  number.replace(/(\d{4})(?=\d)/g, "$1 "),
  number.replace(/(\d{4})(?=\d)/g, "$1-")
]

/**
 * A security code written as a number, under any name a card's code goes by. A bare number equal to a code is as
 * likely an id, an amount or a process id (the suite makes thousands of each), so a number is searched for only there;
 * as a string it is searched for everywhere.
 */
const codeAsNumber = (code: string) =>
  new RegExp(`"(?:cvv|cvc|cvv2|security_?code|securitycode|card_?code)":\\s*${code}\\b`, "i")

/** Where a text shows a card number or a security code that was sent, if anywhere. */
const leaks = (text: string): ReadonlyArray<string> =>
  sentCards().flatMap((card) => [
    ...forms(card.number)
      .filter((form) => text.includes(form))
      .map((form) => `number ${form}`),
    ...(text.includes(`"${card.securityCode}"`) ? [`security code "${card.securityCode}"`] : []),
    ...(codeAsNumber(card.securityCode).test(text) ? [`security code ${card.securityCode} as a number`] : []),
    ...(text.includes("security_code") ? ["the field security_code"] : [])
  ])

export const cardDataScenario = () =>
  describe("card data after the whole suite", () => {
    it("is in no table of any database the suite used, events and postback attempts included", async () => {
      expect(sentCards().length).toBeGreaterThanOrEqual(3)
      const scanned = new Map<string, number>()
      for (const database of databases()) {
        const connection = connect(database.url)
        try {
          const tables = await connection.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1"
          )
          for (const { table_name } of tables) {
            const rows = await connection.query(`SELECT to_jsonb(t)::text AS row FROM ${String(table_name)} t`)
            scanned.set(String(table_name), (scanned.get(String(table_name)) ?? 0) + rows.length)
            for (const { row } of rows) {
              expect(
                leaks(String(row)),
                `${database.name}.${String(table_name)}: ${String(row).slice(0, 200)}`
              ).toEqual([])
            }
          }
        } finally {
          await connection.close()
        }
      }
      console.info(`card data: scanned ${JSON.stringify(Object.fromEntries(scanned))}`)
      // The scan saw what it is meant to see: invoices paid by card, their events and postback attempts' rows.
      expect(scanned.get("invoices")).toBeGreaterThan(1_000)
      expect(scanned.get("events")).toBeGreaterThan(1_000)
      expect(scanned.has("deliveries")).toBe(true)
    })

    it("is in no line any process printed", () => {
      const outputs = printed()
      expect(outputs.join("").length).toBeGreaterThan(10_000)
      for (const output of outputs) {
        for (const line of output.split("\n")) expect(leaks(line), line.slice(0, 200)).toEqual([])
      }
    })
  })
