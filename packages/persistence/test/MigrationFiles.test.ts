// The migrations on disk and the list the migrator runs agree: a migration written but never listed would be skipped
// by every database, and one listed out of its number's order would be sliced wrongly by `Migrations.runThrough`.
import { readdirSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { migrations } from "../src/migrations/InOrder.js"

const folder = new URL("../src/migrations/", import.meta.url)
const listModule = "InOrder.ts"
/** The form the migrator reads a name in (`<id>_<name>`), as a file of its own. */
const migrationFile = /^(\d+)_([a-z0-9_]+)\.ts$/

const files = readdirSync(folder).filter((file) => file !== listModule)
const numberOf = (name: string) => Number(/^\d+/.exec(name)![0])

describe("the migration files", () => {
  it("are each named <number>_<name>.ts", () => {
    expect(files.filter((file) => !migrationFile.test(file))).toEqual([])
  })

  it("each have a number of their own", () => {
    const numbers = files.map(numberOf)
    expect(numbers.filter((number, index) => numbers.indexOf(number) !== index)).toEqual([])
  })

  it("are all listed, under their own names, in their numbers' order", () => {
    const byNumber = files.map((file) => file.replace(/\.ts$/, "")).sort((a, b) => numberOf(a) - numberOf(b))
    expect(Object.keys(migrations)).toEqual(byNumber)
  })

  it("are listed with the migration each file holds", async () => {
    for (const [name, migration] of Object.entries(migrations)) {
      const module = await import(new URL(`${name}.ts`, folder).href)
      expect(module.migration, name).toBe(migration)
    }
  })
})
