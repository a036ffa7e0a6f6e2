// How a refused request is described (SPEC 3): one `issues` entry per problem, with dotted paths, and a message
// naming the first; never echoing the input, which may carry a card number or a CVV. There is always at least one
// entry: a problem of the request as a whole (a body that is not JSON) is at the root path, `""`.
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

/** One entry per problem, and at least one. */
export type Issues = readonly [ErrorIssue, ...Array<ErrorIssue>]

const pathOf = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>) =>
  path.map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".")

/**
 * One `issues` entry per problem, with dotted paths, from a schema failure; should the failure name no problem, one
 * at the root saying that the whole is invalid.
 */
export const issuesOf = (error: Schema.SchemaError): Issues => {
  const [first, ...rest] = formatter(error.issue).issues.map((issue) => ({
    path: pathOf(issue.path ?? []),
    message: issue.message
  }))
  return first === undefined ? [{ path: "", message: "is invalid" }] : [first, ...rest]
}

/** A 400 listing `issues` and naming the first in its message. */
export const invalidRequest = (issues: Issues): InvalidRequest => {
  const [first] = issues
  return new InvalidRequest({ message: first.path === "" ? first.message : `${first.path}: ${first.message}`, issues })
}
