// A request the schemas refuse, told as the API Pix's `violacoes`: one per problem, naming the property by its dotted
// path under the request's name (`cob.valor.original`), and what was wrong with it.
import { type Schema, SchemaIssue } from "effect"
import type { Violation } from "./Problem.js"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const pathOf = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>) =>
  path.map((segment) => String(typeof segment === "object" ? segment.key : segment))

export const fromSchemaError = (error: Schema.SchemaError, root: string): ReadonlyArray<Violation> =>
  formatter(error.issue).issues.map((issue) => ({
    razao: issue.message,
    propriedade: [root, ...pathOf(issue.path ?? [])].join(".")
  }))
