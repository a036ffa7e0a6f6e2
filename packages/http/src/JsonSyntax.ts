// Where a text that `JSON.parse` refused stops being JSON (RFC 8259), and what is wrong there, for a 400 that says so
// without repeating the text: the engine's own messages quote the input, which may carry a card number. Walked
// without recursion, once, only for a body already refused.

export interface SyntaxProblem {
  /** The offset in the text (UTF-16 code units, as `JSON.parse` counts), from 0. */
  readonly position: number
  readonly line: number
  readonly column: number
  readonly problem: string
}

/** What the scanner expects next. */
type Expecting = "value" | "valueOrEnd" | "key" | "keyOrEnd" | "colon" | "afterValue"

const whitespace = new Set([" ", "\t", "\n", "\r"])
const escapes = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"])
const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const hexDigits = /^[0-9A-Fa-f]{4}$/

const located = (text: string, position: number, problem: string): SyntaxProblem => {
  let line = 1
  let lineStart = 0
  for (let at = text.indexOf("\n"); at !== -1 && at < position; at = text.indexOf("\n", at + 1)) {
    line += 1
    lineStart = at + 1
  }
  return { position, line, column: position - lineStart + 1, problem }
}

/** The end of the string whose opening quote is at `start`, or the problem in it. */
const scanString = (text: string, start: number): number | SyntaxProblem => {
  for (let at = start + 1; at < text.length; at++) {
    const char = text[at]!
    if (char === '"') return at + 1
    if (char.charCodeAt(0) < 0x20) return located(text, at, "a control character inside a string")
    if (char === "\\") {
      const escaped = text[at + 1]
      if (escaped === "u") {
        if (!hexDigits.test(text.slice(at + 2, at + 6))) return located(text, at, "an escape \\u without 4 hex digits")
        at += 5
      } else if (escaped !== undefined && escapes.has(escaped)) {
        at += 1
      } else if (escaped !== undefined) {
        return located(text, at, "an unknown escape")
      }
    }
  }
  return located(text, text.length, "a string that is not closed")
}

const expected: Record<Exclude<Expecting, "afterValue">, string> = {
  value: "expected a value",
  valueOrEnd: "expected a value or ']'",
  key: "expected a property name in double quotes",
  keyOrEnd: "expected a property name in double quotes or '}'",
  colon: "expected ':'"
}

/** The first place where `text` is not JSON, or `undefined` when it is JSON. */
export const problemOf = (text: string): SyntaxProblem | undefined => {
  const open: Array<"[" | "{"> = []
  let expecting: Expecting = "value"
  let at = 0
  for (;;) {
    while (at < text.length && whitespace.has(text[at]!)) at++
    const char = text[at]
    if (char === undefined) {
      if (open.length === 0) {
        return expecting === "afterValue" ? undefined : located(text, at, "there is no JSON value")
      }
      return located(text, at, "the JSON ends too soon")
    }
    if (open.length === 0 && expecting === "afterValue") return located(text, at, "text after the JSON value")
    switch (expecting) {
      case "colon":
        if (char !== ":") return located(text, at, expected.colon)
        at += 1
        expecting = "value"
        continue
      case "afterValue":
        if (char === ",") {
          at += 1
          expecting = open.at(-1) === "{" ? "key" : "value"
          continue
        }
        if (char === (open.at(-1) === "{" ? "}" : "]")) {
          at += 1
          open.pop()
          continue
        }
        return located(text, at, open.at(-1) === "{" ? "expected ',' or '}'" : "expected ',' or ']'")
      case "key":
      case "keyOrEnd": {
        if (char === "}" && expecting === "keyOrEnd") {
          at += 1
          open.pop()
          expecting = "afterValue"
          continue
        }
        if (char !== '"') return located(text, at, expected[expecting])
        const end = scanString(text, at)
        if (typeof end !== "number") return end
        at = end
        expecting = "colon"
        continue
      }
      case "value":
      case "valueOrEnd": {
        if (char === "]" && expecting === "valueOrEnd") {
          at += 1
          open.pop()
          expecting = "afterValue"
          continue
        }
        if (char === "{" || char === "[") {
          open.push(char)
          at += 1
          expecting = char === "{" ? "keyOrEnd" : "valueOrEnd"
          continue
        }
        if (char === '"') {
          const end = scanString(text, at)
          if (typeof end !== "number") return end
          at = end
          expecting = "afterValue"
          continue
        }
        const literal = ["true", "false", "null"].find((word) => text.startsWith(word, at))
        if (literal !== undefined) {
          at += literal.length
          expecting = "afterValue"
          continue
        }
        number.lastIndex = at
        if (number.test(text)) {
          at = number.lastIndex
          expecting = "afterValue"
          continue
        }
        return located(text, at, expected[expecting])
      }
    }
  }
}
