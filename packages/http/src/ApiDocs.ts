// The contract as documents (SPEC 11.1): the OpenAPI document at /openapi.json, which names this server by its public
// address (PUBLIC_BASE_URL) so that a client generated from it calls the server it came from, and the interactive
// documentation at /docs, which loads nothing from another host. The page is small; the reference's script (3 MB,
// the Scalar bundle that effect ships) and the script that starts it on this document are assets of their own, named
// by their content so that a browser keeps them for good, and everything is served compressed (`StaticAsset`). Each
// answer is limited per client address, as the payer's side is (`RouteAccess`).
import { FaturaApi, NotFound } from "@fatura/api"
import { PublicBaseUrl } from "@fatura/application"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApi, HttpApiScalar, OpenApi } from "effect/http-api"
import * as ErrorResponses from "./ErrorResponses.js"
import * as Html from "./Html.js"
import type * as RoutePolicy from "./RoutePolicy.js"
import * as StaticAsset from "./StaticAsset.js"

/** The contract as this server documents it: served from `publicBaseUrl`. */
export const servedApi = (publicBaseUrl: string) =>
  FaturaApi.annotate(OpenApi.Servers, [{ url: publicBaseUrl, description: "This server" }])

/** What GET /openapi.json answers. */
export const document = (publicBaseUrl: string) => OpenApi.fromApi(servedApi(publicBaseUrl))

/** The routes of the documentation, as the router knows them. */
export const routes = { page: "/docs", asset: "/docs/:asset", document: "/openapi.json" } as const

/** Each of the documentation's routes, open to anyone. */
export const policedRoutes: ReadonlyArray<RoutePolicy.Route> = Object.values(routes).map((path) => ({
  method: "GET",
  path,
  policy: { access: "documentation", callsProviders: false, takesPayload: false, page: false }
}))

/** Scripts and fetches of this server only, styles inline (the reference's script injects them), nothing else. */
export const contentSecurityPolicy = (publicBaseUrl: string) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${new URL(publicBaseUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

/** Asked again every time, and answered `304` while unchanged: they change with the server's version. */
const revalidated = "no-cache"
/** Named by their content: another content is another name. */
const immutable = "public, max-age=31536000, immutable"

/**
 * The Scalar bundle, taken once from the page `HttpApiScalar` makes (an empty API's), where it is the first script:
 * effect ships it only inside that page. Its source map comment names a file of the CDN it came from, left out.
 */
const scalarBundle = Effect.promise(async () => {
  const { handler, dispose } = HttpRouter.toWebHandler(HttpApiScalar.layer(HttpApi.make("bundle"), { path: "/" }), {
    disableLogger: true
  })
  try {
    return await (await handler(new Request("http://localhost/"))).text()
  } finally {
    await dispose()
  }
}).pipe(
  Effect.flatMap((page) => {
    const bundle = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1]
    return bundle?.includes("createApiReference")
      ? Effect.succeed(bundle.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, "\n"))
      : Effect.die(
          new Error("no Scalar bundle in the page of effect's HttpApiScalar: has it changed how it serves it?")
        )
  })
)

/** By the document's security schemes (`@fatura/api`'s `Authorization`). */
const samplePlaceholders = {
  secretKey: { token: "YOUR_SECRET_KEY" },
  publicToken: { token: "YOUR_PUBLIC_TOKEN" },
  metricsToken: { token: "YOUR_METRICS_TOKEN" }
} as const

/** Starts the reference on the document, as `HttpApiScalar`'s page does inline. */
const setupScript = (spec: OpenApi.OpenAPISpec) => {
  const configuration = {
    _integration: "html",
    withDefaultFonts: false,
    defaultOpenAllTags: true,
    // What the code samples send as `Authorization: Bearer …` for each credential, until the reader enters theirs.
    authentication: { securitySchemes: samplePlaceholders },
    content: spec
  }
  return `window.Scalar.createApiReference(document.getElementById("api-reference-container"), ${JSON.stringify(configuration)})\n`
}

const pageHtml = (title: string, scripts: ReadonlyArray<string>) =>
  [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<title>${Html.escapeText(title)}</title>`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "</head>",
    "<body>",
    '<div id="api-reference-container"></div>',
    ...scripts.map((name) => `<script src="/docs/${name}"></script>`),
    "</body>",
    "</html>",
    ""
  ].join("\n")

export const layer = Layer.unwrap(
  Effect.gen(function* () {
    const publicBaseUrl = yield* PublicBaseUrl
    const spec = OpenApi.fromApi(servedApi(publicBaseUrl))
    const openApi = StaticAsset.make(JSON.stringify(spec), {
      contentType: "application/json",
      cacheControl: revalidated
    })
    const script = (source: string) =>
      StaticAsset.make(source, { contentType: "text/javascript; charset=utf-8", cacheControl: immutable })
    const reference = script(yield* scalarBundle)
    const setup = script(setupScript(spec))
    const assets = new Map([
      [`scalar.${reference.hash}.js`, reference],
      [`setup.${setup.hash}.js`, setup]
    ])
    const page = StaticAsset.make(pageHtml(spec.info.title, [...assets.keys()]), {
      contentType: "text/html; charset=utf-8",
      cacheControl: revalidated,
      headers: {
        "content-security-policy": contentSecurityPolicy(publicBaseUrl),
        "referrer-policy": "no-referrer"
      }
    })
    return Layer.mergeAll(
      HttpRouter.add("GET", routes.document, openApi.respond),
      HttpRouter.add("GET", routes.page, page.respond),
      HttpRouter.add(
        "GET",
        routes.asset,
        Effect.flatMap(HttpRouter.params, ({ asset }) => {
          const found = asset === undefined ? undefined : assets.get(asset)
          return found === undefined
            ? Effect.succeed(ErrorResponses.of(new NotFound({ message: "no such route" })))
            : found.respond
        })
      )
    )
  })
)
