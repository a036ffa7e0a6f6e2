// How a refused request is described (SPEC 3): one `issues` entry per problem, with dotted paths, and a message
// naming the first; never echoing the input, which may carry a card number or a CVV.
import { type ErrorIssue, InvalidRequest } from "@fatura/api"
import { type Schema, SchemaIssue } from "effect"

const withoutInput = (message: string) =>
  message.startsWith("Invalid data ") ? "is invalid" : message.replace(/, got [\s\S]*$/, "")

const formatter = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) => (issue._tag === "MissingKey" ? "is required" : withoutInput(SchemaIssue.defaultLeafHook(issue))),
  checkHook: (issue) => {
    const message = SchemaIssue.defaultCheckHook(issue)
    return message === undefined ? undefined : withoutInput(message)
  }
})

const pathOf = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>) =>
  path.map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".")

/** One `issues` entry per problem, with dotted paths, from a schema failure. */
export const issuesOf = (error: Schema.SchemaError): ReadonlyArray<ErrorIssue> =>
  formatter(error.issue).issues.map((issue) => ({
    path: pathOf(issue.path ?? []),
    message: issue.message
  }))

/** A 400 naming the first of `issues` in its message, or saying `fallback` when there is none. */
export const invalidRequest = (issues: ReadonlyArray<ErrorIssue>, fallback: string): InvalidRequest => {
  const first = issues[0]
  const message = first === undefined ? fallback : first.path === "" ? first.message : `${first.path}: ${first.message}`
  return new InvalidRequest({ message, issues })
}
