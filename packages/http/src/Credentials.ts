// The one reading of a request's credentials (SPEC 2): `Authorization: Bearer <token>`, the scheme in any case
// (RFC 9110 §11.1) and one or more spaces before the token. Authentication is given what this finds; the rate limit
// and idempotency act on the principal authentication makes of it, never on the header.

const bearer = /^bearer +(\S+)$/i

/** The token of a Bearer `Authorization` header, or `undefined` when there is none. */
export const bearerToken = (authorization: string | undefined): string | undefined =>
  authorization === undefined ? undefined : bearer.exec(authorization)?.[1]
