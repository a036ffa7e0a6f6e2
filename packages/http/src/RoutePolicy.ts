// What each route lets through and how, declared with the route: who it may act as (`Access`) and whether its use
// case calls a provider. The contract's routes are declared per group, beside their handlers, in a record typed by
// the contract itself: a group or endpoint without a policy does not compile, nor does an endpoint whose contract
// security asks for one credential while its policy names another. The routes outside the contract (the checkout
// page, the provider's notifications, the documentation) declare theirs as `Route`s.
import type { FaturaApi, PublicTokenAuthorization, SecretKeyAuthorization } from "@fatura/api"
import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"

export type Access =
  /** The merchant's API (SPEC 2): a secret key, limited per key by what its requests cost (`ResponseCost`). */
  | "secretKey"
  /**
   * Card tokenization from the payer's browser (SPEC 4.7): the company's public token, limited per client address, and
   * per token by `CardVelocity`.
   */
  | "publicToken"
  /** The payer's side (SPEC 4.7, 11.3): an invoice's checkout token, limited per client address. */
  | "checkoutToken"
  /** A provider's notifications (a PSP's): anyone, since they are only hints checked with the provider; limited per client address. */
  | "provider"
  /** The documentation (`ApiDocs`): anyone; its answers are large, so limited per client address. */
  | "documentation"
  /** Operations: anyone. */
  | "open"

/** What a route declares. */
export interface Declared<A extends Access = Access> {
  readonly access: A
  /**
   * Whether the route's use case calls a provider (the card acquirer, a pix or bank slip provider), and so must not
   * run inside a transaction: it holds an `Idempotency-Key` by a lease.
   */
  readonly callsProviders: boolean
}

/** A route's policy as the edge applies it: what it declares, and what its route is. */
export interface RoutePolicy extends Declared {
  /** Whether the route reads a body, which a repeat with the same `Idempotency-Key` must then match. */
  readonly takesPayload: boolean
  /** Whether the route answers with a page for people, which says itself that an invoice was not found. */
  readonly page: boolean
}

/** A route outside the contract, with its policy. */
export interface Route {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly policy: RoutePolicy
}

type Groups = typeof FaturaApi extends HttpApi.HttpApi<string, infer G> ? G : never

/** The access an endpoint's contract security leaves its policy: the credential it names, or any other kind. */
type AccessOf<Endpoint> = [SecretKeyAuthorization] extends [HttpApiEndpoint.Middleware<Endpoint>]
  ? "secretKey"
  : [PublicTokenAuthorization] extends [HttpApiEndpoint.Middleware<Endpoint>]
    ? "publicToken"
    : Exclude<Access, "secretKey" | "publicToken">

/** The policy of every endpoint of the contract's group `Name`, by the endpoint's name. */
export type OfGroup<Name extends HttpApiGroup.Identifier<Groups>> = {
  readonly [Endpoint in HttpApiGroup.Endpoints<
    HttpApiGroup.WithIdentifier<Groups, Name>
  > as HttpApiEndpoint.Identifier<Endpoint>]: Declared<AccessOf<Endpoint>>
}

/** The policy of every endpoint of the contract, by group and endpoint. */
export type OfContract = { readonly [Group in Groups as HttpApiGroup.Identifier<Group>]: OfGroup<Group["identifier"]> }

/** A route that acts for a company by its secret key and calls no provider. */
export const secretKey: Declared<"secretKey"> = { access: "secretKey", callsProviders: false }

/** A route anyone may call, that calls no provider. */
export const open: Declared<"open"> = { access: "open", callsProviders: false }

/** What a route added without a policy would be held to: anyone, and no body read. */
export const unlisted: RoutePolicy = { ...open, takesPayload: false, page: false }
