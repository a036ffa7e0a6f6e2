// SPEC 6.3 and 11.2 after everything above: every table of every database the suite made (events and postback
// attempts included), and everything every process printed, hold none of the card numbers or security codes the
// suite sent — in any of the forms a number is written.
import { describe, expect, it } from "vitest"
import { connect, databases } from "./support/Cluster.js"
import { sentCards } from "./support/Journal.js"
import { printed } from "./support/Service.js"

const forms = (number: string) => [
  number,
  number.replace(/(\d{4})(?=\d)/g, "$1 "),
  number.replace(/(\d{4})(?=\d)/g, "$1-")
]

/** Where a text shows a card number or a security code that was sent, if anywhere. */
const leaks = (text: string): ReadonlyArray<string> =>
  sentCards().flatMap((card) => [
    ...forms(card.number)
      .filter((form) => text.includes(form))
      .map((form) => `number ${form}`),
    ...[`"${card.securityCode}"`, `:${card.securityCode},`, `:${card.securityCode}}`]
      .filter((form) => text.includes(form))
      .map((form) => `security code ${form}`),
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
        // Every log line carries its process's id (`"pid":8642}`), which may be any number, a security code's too: it
        // is the logger's, never a request's, so it is left out of the search.
        for (const line of output.split("\n")) {
          expect(leaks(line.replace(/"pid":\d+/g, '"pid":_')), line.slice(0, 200)).toEqual([])
        }
      }
    })
  })
