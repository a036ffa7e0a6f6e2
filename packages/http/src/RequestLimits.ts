// The request limits of SPEC 10 that no schema states: body size, JSON nesting, string length and well-formed text,
// and the per-key rate limit's setting.
import type { ErrorIssue } from "@fatura/api"
import { ByteSize, Context } from "effect"
import * as WellFormedText from "./WellFormedText.js"

export const maxBodyBytes = 1024 * 1024
export const maxBodySize = ByteSize.bytes(maxBodyBytes)
export const maxDepth = 32
export const maxStringLength = 10_000

/** Requests a second per API key (`FATURA_RATE_LIMIT`, SPEC 12.1); bursts of twice that. */
export const KeyRateLimit = Context.Reference<number>("@fatura/http/KeyRateLimit", { defaultValue: () => 100 })

interface Node {
  readonly value: unknown
  readonly key: string
  readonly parent: Node | undefined
  readonly depth: number
}

const pathOf = (node: Node | undefined): string => {
  const keys: Array<string> = []
  for (let at = node; at?.parent !== undefined; at = at.parent) keys.push(at.key)
  return keys.reverse().join(".")
}

/**
 * The first place where a parsed JSON body nests deeper than {@link maxDepth} or holds a string (value or key)
 * longer than {@link maxStringLength} or that `textProblem` finds fault with (by default, text that is not
 * well-formed); walked without recursion, so no body can exhaust the stack.
 */
export const checkJson = (
  body: unknown,
  textProblem: (text: string) => string | undefined = WellFormedText.problemOf
): ErrorIssue | undefined => {
  const stack: Array<Node> = [{ value: body, key: "", parent: undefined, depth: 0 }]
  while (stack.length > 0) {
    const node = stack.pop()!
    const value = node.value
    if (typeof value === "string") {
      if (value.length > maxStringLength) {
        return { path: pathOf(node), message: `must be at most ${maxStringLength} characters` }
      }
      const problem = textProblem(value)
      if (problem !== undefined) return { path: pathOf(node), message: problem }
      continue
    }
    if (value === null || typeof value !== "object") continue
    if (node.depth + 1 > maxDepth) return { path: pathOf(node), message: `nests deeper than ${maxDepth} levels` }
    for (const key of Object.keys(value)) {
      if (key.length > maxStringLength) {
        return { path: pathOf(node), message: `has a key longer than ${maxStringLength} characters` }
      }
      const problem = textProblem(key)
      if (problem !== undefined) return { path: pathOf(node), message: `has a key that ${problem}` }
      stack.push({ value: (value as Record<string, unknown>)[key], key, parent: node, depth: node.depth + 1 })
    }
  }
  return undefined
}
