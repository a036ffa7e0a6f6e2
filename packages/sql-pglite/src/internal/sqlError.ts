// Maps PGlite failures to SqlError reasons by SQLSTATE, with the same classification as @effect/sql-pg.
import {
  AuthenticationError,
  AuthorizationError,
  ConnectionError,
  ConstraintError,
  DeadlockError,
  LockTimeoutError,
  SerializationError,
  SqlError,
  type SqlErrorReason,
  SqlSyntaxError,
  StatementTimeoutError,
  UniqueViolation,
  UnknownError
} from "effect/sql/SqlError"

interface Props {
  readonly cause: unknown
  readonly message: string
  readonly operation: string
}

const field = (cause: unknown, name: string): string | undefined => {
  if (typeof cause !== "object" || cause === null) return undefined
  const value = (cause as Record<string, unknown>)[name]
  return typeof value === "string" ? value : undefined
}

const normalizeConstraint = (constraint: string | undefined): string => {
  const normalized = constraint?.trim() ?? ""
  return normalized.length === 0 ? "unknown" : normalized
}

const classify = (code: string | undefined, constraint: string | undefined, props: Props): SqlErrorReason => {
  if (code === undefined) return new UnknownError(props)
  if (code.startsWith("08")) return new ConnectionError(props)
  if (code.startsWith("28")) return new AuthenticationError(props)
  if (code === "42501") return new AuthorizationError(props)
  if (code.startsWith("42")) return new SqlSyntaxError(props)
  if (code === "23505") return new UniqueViolation({ ...props, constraint: normalizeConstraint(constraint) })
  if (code.startsWith("23")) return new ConstraintError(props)
  if (code === "40P01") return new DeadlockError(props)
  if (code === "40001") return new SerializationError(props)
  if (code === "55P03") return new LockTimeoutError(props)
  if (code === "57014") return new StatementTimeoutError(props)
  return new UnknownError(props)
}

/** PGlite throws its protocol `DatabaseError`, which carries the SQLSTATE in `code`, for every server-side failure. */
export const fromCause = (cause: unknown, operation: string): SqlError => {
  const detail = field(cause, "message")
  const message = detail === undefined ? "PgliteClient: Query failed" : `PgliteClient: ${detail}`
  return new SqlError({
    reason: classify(field(cause, "code"), field(cause, "constraint"), { cause, message, operation })
  })
}

export const connectionError = (cause: unknown, message: string, operation: string): SqlError =>
  new SqlError({ reason: new ConnectionError({ cause, message, operation }) })
