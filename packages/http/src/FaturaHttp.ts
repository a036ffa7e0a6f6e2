// The whole HTTP surface: the contract's routes, OpenAPI at /openapi.json, docs at /docs, the hosted checkout
// page, the envelope.
import { FaturaApi } from "@fatura/api"
import { Layer } from "effect"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import * as CheckoutHttp from "./CheckoutHttp.js"
import * as CompanyHttp from "./CompanyHttp.js"
import * as InvoicesHttp from "./InvoicesHttp.js"
import * as PublicHttp from "./PublicHttp.js"
import * as PublicTokenAuthorizationLive from "./PublicTokenAuthorizationLive.js"
import * as ResponseEnvelope from "./ResponseEnvelope.js"
import * as SandboxHttp from "./SandboxHttp.js"
import * as SecretKeyAuthorizationLive from "./SecretKeyAuthorizationLive.js"
import * as SystemHttp from "./SystemHttp.js"
import * as WebhooksHttp from "./WebhooksHttp.js"

export const routes = Layer.mergeAll(
  HttpApiBuilder.layer(FaturaApi, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide([
      InvoicesHttp.layer,
      CompanyHttp.layer,
      PublicHttp.layer,
      SandboxHttp.layer,
      SystemHttp.layer,
      WebhooksHttp.layer
    ]),
    Layer.provide([SecretKeyAuthorizationLive.layer, PublicTokenAuthorizationLive.layer])
  ),
  HttpApiScalar.layer(FaturaApi, { path: "/docs" }),
  CheckoutHttp.layer,
  ResponseEnvelope.layer
)
