// The whole PSP put together: its state, its services, its routes, and the one HTTPS server that asks every client
// for a certificate (verified against the PSP's CA) without requiring one, since the locations, the JWKS and the
// simulator are open; the API Pix routes refuse a connection without a trusted one (ApiAccess).
import { createServer } from "node:https"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Effect, Layer, type Scope } from "effect"
import { FetchHttpClient, HttpRouter } from "effect/http"
import { AccessTokens } from "./AccessTokens.js"
import { Charges } from "./Charges.js"
import { clientSettings } from "./ClientSettings.js"
import * as CobHttp from "./CobHttp.js"
import * as CobvHttp from "./CobvHttp.js"
import * as LocationHttp from "./LocationHttp.js"
import { LocationSigner } from "./LocationSigner.js"
import { Notifications } from "./Notifications.js"
import * as OAuthHttp from "./OAuthHttp.js"
import { Payments } from "./Payments.js"
import * as PixHttp from "./PixHttp.js"
import * as Problem from "./Problem.js"
import { PspSettings, type Settings } from "./PspSettings.js"
import { PspState, type State } from "./PspState.js"
import { PublicAddress } from "./PublicAddress.js"
import { ReceivedPixes } from "./ReceivedPix.js"
import * as SimulatorHttp from "./SimulatorHttp.js"
import { Switches } from "./Switches.js"
import * as WebhookHttp from "./WebhookHttp.js"
import { Webhooks } from "./Webhooks.js"

/**
 * Any other route, an API Pix product this PSP does not offer included (`lotecobv`, `loc`, `rec`…), gets the spec's
 * answer to a product outside the client's contract: 403 AcessoNegado.
 */
const notOffered = HttpRouter.add(
  "*",
  "*",
  Problem.accessDenied("Este PSP de desenvolvimento não oferece este recurso da API Pix.")
)

export const routes = Layer.mergeAll(
  OAuthHttp.layer,
  CobHttp.layer,
  CobvHttp.layer,
  PixHttp.layer,
  WebhookHttp.layer,
  LocationHttp.layer,
  SimulatorHttp.layer,
  notOffered
)

const httpsServer = Layer.unwrap(
  Effect.gen(function* () {
    const { server, ca } = yield* PspState
    const { host, port } = yield* PspSettings
    return NodeHttpServer.layer(
      () =>
        createServer({
          key: server.key,
          cert: server.certificate,
          ca: [ca.certificate],
          requestCert: true,
          rejectUnauthorized: false
        }),
      { host, port }
    )
  })
)

const stores = Layer.mergeAll(Charges.layer, ReceivedPixes.layer, Webhooks.layer, Switches.layer)

const services = Layer.mergeAll(Payments.layer, LocationSigner.layer, AccessTokens.layer, PublicAddress.layer).pipe(
  Layer.provideMerge(Notifications.layer),
  Layer.provideMerge(stores),
  Layer.provide(FetchHttpClient.layer)
)

/** The PSP serving on `settings.host:settings.port`, with every service it is made of in its output. */
export const layer = (settings: Settings) =>
  HttpRouter.serve(routes, { disableListenLog: true }).pipe(
    Layer.provideMerge(services),
    Layer.provideMerge(httpsServer),
    Layer.provideMerge(PspState.layer.pipe(Layer.provide(NodeFileSystem.layer))),
    Layer.provideMerge(PspSettings.layer(settings))
  )

export interface RunningPsp {
  /** `https://127.0.0.1:<port>`. */
  readonly baseUrl: string
  readonly port: number
  readonly state: State
  readonly settings: Settings
  /** What a client sets to use this PSP: FATURA_PIX_* names and their values. */
  readonly clientSettings: ReadonlyArray<readonly [name: string, value: string]>
  /** The simulator's switches, for a test that would rather not go through HTTP. */
  readonly switches: Switches["Service"]
}

/** Starts the PSP for as long as the scope lasts. */
export const start = (settings: Settings): Effect.Effect<RunningPsp, unknown, Scope.Scope> =>
  Effect.map(Layer.build(layer(settings)), (context) => {
    const { baseUrl, port } = Context.get(context, PublicAddress)
    const state = Context.get(context, PspState)
    return {
      baseUrl,
      port,
      state,
      settings,
      clientSettings: clientSettings(baseUrl, state),
      switches: Context.get(context, Switches)
    }
  })
