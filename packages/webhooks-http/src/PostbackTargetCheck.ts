// Where a postback may go, checked against the network (SPEC 8.4): the host's addresses, every one of them public.
// It returns those addresses so that the sender connects to one of them, not to what a second lookup answers
// (a name that resolved to a public address for the check can resolve to 127.0.0.1 a moment later).
import { lookup } from "node:dns/promises"
import { PostbackTarget } from "@fatura/domain"
import { Effect, Result } from "effect"

export interface CheckedTarget {
  readonly url: URL
  /** For an IP literal, the host itself; for a name, every address it resolved to, in the resolver's order. */
  readonly addresses: ReadonlyArray<string>
}

/** The addresses a host name resolves to; rejects (with a Node `code` such as `ENOTFOUND`) when it resolves to none. */
export type Resolve = (host: string) => Promise<ReadonlyArray<string>>

/** The system resolver, as `fetch` and `node:http` use it: /etc/hosts first (so `localhost` is 127.0.0.1), then DNS. */
export const systemResolve: Resolve = async (host) =>
  (await lookup(host, { all: true, order: "verbatim" })).map((entry) => entry.address)

const rejected = (reason: string) => new PostbackTarget.PostbackUrlRejected({ reason })

const notResolved = (cause: unknown): PostbackTarget.PostbackUrlRejected => {
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined
  // ENOTFOUND and ENODATA are answers: the name has no address. Anything else (EAI_AGAIN, a timeout) is the
  // resolver failing; either way no postback goes there, but the reason should tell which.
  return rejected(
    code === undefined || code === "ENOTFOUND" || code === "ENODATA"
      ? "does not resolve"
      : `could not be resolved (${code})`
  )
}

const allPublic = (
  addresses: ReadonlyArray<string>,
  source: "literal" | "resolved"
): Result.Result<ReadonlyArray<string>, PostbackTarget.PostbackUrlRejected> =>
  Result.map(Result.all(addresses.map((address) => PostbackTarget.checkAddress(address, source))), () => addresses)

/** {@link check} with another resolver, for tests and for a resolver other than the system's. */
export const make =
  (resolve: Resolve) =>
  (url: string): Effect.Effect<CheckedTarget, PostbackTarget.PostbackUrlRejected> =>
    Effect.gen(function* () {
      const { host } = yield* Effect.fromResult(PostbackTarget.parseUrl(url))
      // parseUrl has accepted it, so it parses.
      const parsed = new URL(url)
      if (PostbackTarget.isIpAddress(host)) {
        return { url: parsed, addresses: yield* Effect.fromResult(allPublic([host], "literal")) }
      }
      const addresses = yield* Effect.tryPromise({ try: () => resolve(host), catch: notResolved })
      if (addresses.length === 0) return yield* Effect.fail(rejected("does not resolve"))
      // One private address is enough to refuse: the sender could be handed any of them.
      return { url: parsed, addresses: yield* Effect.fromResult(allPublic(addresses, "resolved")) }
    })

/** Checks `url` with the system resolver: refused unless it is http(s) and its host is, or resolves only to, public addresses. */
export const check: (url: string) => Effect.Effect<CheckedTarget, PostbackTarget.PostbackUrlRejected> =
  make(systemResolve)
