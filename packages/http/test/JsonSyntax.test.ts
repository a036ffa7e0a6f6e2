// Where a body that is not JSON stops being JSON (issue 24, item 3): the 400 says what is wrong and where, never
// quoting the body. It must agree with `JSON.parse` on what is JSON, and point inside the text.
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as JsonSyntax from "../src/JsonSyntax.js"

const parses = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

describe("JsonSyntax.problemOf", () => {
  it("finds nothing wrong with JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, "\t"), (value, indent) => {
        expect(JsonSyntax.problemOf(JSON.stringify(value, null, indent))).toBeUndefined()
      })
    )
  })

  it("agrees with JSON.parse on any text, and points inside it", () => {
    const pieces = fc.constantFrom(
      "{",
      "}",
      "[",
      "]",
      ",",
      ":",
      '"',
      "\\",
      "a",
      "1",
      "-",
      ".",
      "e",
      " ",
      "\n",
      "\u0001"
    )
    const texts = fc.oneof(
      fc.string(),
      fc.array(pieces).map((parts) => parts.join("")),
      fc.tuple(fc.jsonValue(), fc.nat(), fc.string({ maxLength: 2 })).map(([value, at, inserted]) => {
        const json = JSON.stringify(value)
        const cut = at % (json.length + 1)
        return json.slice(0, cut) + inserted + json.slice(cut)
      })
    )
    fc.assert(
      fc.property(texts, (text) => {
        const problem = JsonSyntax.problemOf(text)
        expect(problem === undefined, JSON.stringify(text)).toBe(parses(text))
        if (problem !== undefined) {
          expect(problem.position).toBeGreaterThanOrEqual(0)
          expect(problem.position).toBeLessThanOrEqual(text.length)
        }
      })
    )
  })

  it("says what is wrong, at the offset JSON.parse counts, with its line and column", () => {
    expect(JsonSyntax.problemOf('{"a": 1,}')).toEqual({
      position: 8,
      line: 1,
      column: 9,
      problem: "expected a property name in double quotes"
    })
    expect(JsonSyntax.problemOf('{\n  "a": 1\n  "b": 2\n}')).toEqual({
      position: 13,
      line: 3,
      column: 3,
      problem: "expected ',' or '}'"
    })
    expect(JsonSyntax.problemOf("[1, 2,]")?.problem).toBe("expected a value")
    expect(JsonSyntax.problemOf('{"a" 1}')?.problem).toBe("expected ':'")
    expect(JsonSyntax.problemOf('{"a": "b')).toMatchObject({ position: 8, problem: "a string that is not closed" })
    expect(JsonSyntax.problemOf('["\\x"]')?.problem).toBe("an unknown escape")
    expect(JsonSyntax.problemOf('["\\u12"]')?.problem).toBe("an escape \\u without 4 hex digits")
    expect(JsonSyntax.problemOf('["a\tb"]')?.problem).toBe("a control character inside a string")
    expect(JsonSyntax.problemOf('{"a": [1, 2')).toMatchObject({ position: 11, problem: "the JSON ends too soon" })
    expect(JsonSyntax.problemOf("  ")).toMatchObject({ position: 2, problem: "there is no JSON value" })
    expect(JsonSyntax.problemOf('{"a": 1} {"b": 2}')).toMatchObject({
      position: 9,
      problem: "text after the JSON value"
    })
    expect(JsonSyntax.problemOf("{'a': 1}")).toMatchObject({ position: 1 })
  })

  it("never quotes the text it was given", () => {
    const card = "4111111111111111"
    for (const text of [`{"number": ${card}x}`, `{"number": "${card}`, `${card}abc`, `{"${card}" 1}`]) {
      const problem = JsonSyntax.problemOf(text)
      expect(problem, text).toBeDefined()
      expect(JSON.stringify(problem)).not.toContain(card.slice(0, 6))
    }
  })
})
