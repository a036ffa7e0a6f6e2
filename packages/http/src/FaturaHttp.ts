// The whole HTTP surface: the contract's routes, OpenAPI at /openapi.json, docs at /docs, the hosted checkout page,
// and the edge in front of them all (`Edge` before routing, `RouteAccess` around each matched route). Every route is
// added through `RouteMethods.recording`, so that the edge knows each path's methods for its 405s.
import { FaturaApi } from "@fatura/api"
import { Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import * as ApiDocs from "./ApiDocs.js"
import * as CheckoutHttp from "./CheckoutHttp.js"
import * as CompanyHttp from "./CompanyHttp.js"
import * as Edge from "./Edge.js"
import * as InvoicesHttp from "./InvoicesHttp.js"
import * as MetricsAccess from "./MetricsAccess.js"
import * as PixNotificationsHttp from "./PixNotificationsHttp.js"
import * as PublicHttp from "./PublicHttp.js"
import * as PublicTokenAuthorizationLive from "./PublicTokenAuthorizationLive.js"
import * as RequestTarget from "./RequestTarget.js"
import * as RouteAccess from "./RouteAccess.js"
import * as RouteMethods from "./RouteMethods.js"
import type * as RoutePolicy from "./RoutePolicy.js"
import * as SandboxHttp from "./SandboxHttp.js"
import * as SecretKeyAuthorizationLive from "./SecretKeyAuthorizationLive.js"
import * as SystemHttp from "./SystemHttp.js"
import * as WebhooksHttp from "./WebhooksHttp.js"
import * as WithdrawalsHttp from "./WithdrawalsHttp.js"

/** What each of the contract's routes lets through, declared by each group beside its handlers. */
const contractPolicies: RoutePolicy.OfContract = {
  invoices: InvoicesHttp.policies,
  company: CompanyHttp.policies,
  public: PublicHttp.policies,
  sandbox: SandboxHttp.policies,
  webhooks: WebhooksHttp.policies,
  withdrawals: WithdrawalsHttp.policies,
  system: SystemHttp.policies
}

export const routes = Layer.mergeAll(
  Layer.mergeAll(
    HttpApiBuilder.layer(FaturaApi).pipe(
      Layer.provide([
        InvoicesHttp.layer,
        CompanyHttp.layer,
        PublicHttp.layer,
        SandboxHttp.layer,
        SystemHttp.layer,
        WebhooksHttp.layer,
        WithdrawalsHttp.layer
      ]),
      Layer.provide([SecretKeyAuthorizationLive.layer, PublicTokenAuthorizationLive.layer, MetricsAccess.layer])
    ),
    ApiDocs.layer,
    CheckoutHttp.layer,
    PixNotificationsHttp.layer
  ).pipe(
    Layer.provide(
      RouteAccess.middleware(contractPolicies, [
        ...ApiDocs.policedRoutes,
        CheckoutHttp.route,
        PixNotificationsHttp.route
      ]).layer
    ),
    Layer.provide(RouteMethods.recording)
  ),
  Edge.layer
).pipe(Layer.provide(RouteMethods.layer))

/** Serves the routes as the edge expects the router to match them: exactly as written. */
export const serve = (options: { readonly disableListenLog?: boolean } = {}) =>
  HttpRouter.serve(routes, { ...options, disableLogger: true, routerConfig: RequestTarget.routerConfig })
