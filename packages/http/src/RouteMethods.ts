// The methods each path is served with, as the router itself has them: every route is recorded here as it is added
// to the router, at start, so that a request for a path that is served, but not with its method, is answered 405 with
// `Allow` (RFC 9110 §15.5.6) instead of the 404 of a path no route has. Nothing is listed by hand.
import { Context, Effect, Layer } from "effect"
import { FindMyWay, HttpRouter } from "effect/http"
import * as RequestTarget from "./RequestTarget.js"

export class RouteMethods extends Context.Service<
  RouteMethods,
  {
    /** Notes that a route serves `path` with `method`: `recording` does, as each route is added. */
    readonly record: (method: string, path: FindMyWay.PathInput) => void
    /**
     * The methods `url` is served with, in alphabetical order — `HEAD` wherever `GET` is, since the router answers
     * `HEAD` with a `GET` route — or none for a path no route has.
     */
    readonly allowed: (url: string) => ReadonlyArray<string>
  }
>()("@fatura/http/RouteMethods") {}

/** The methods of the routes of one server, matched as its router matches them (`RequestTarget.routerConfig`). */
export const layer = Layer.sync(RouteMethods)(() => {
  const paths = FindMyWay.make<true>(RequestTarget.routerConfig)
  const methods = new Set<string>()
  return RouteMethods.of({
    record: (method, path) => {
      paths.on(method, path, true)
      methods.add(method)
      if (method === "GET") methods.add("HEAD")
    },
    allowed: (url) =>
      [...methods].filter((method) => paths.find(method === "HEAD" ? "GET" : method, url) !== undefined).sort()
  })
})

/**
 * The router the routes are added to, recording each route as it passes it on: provided to every layer of routes. A
 * route for every method (`*`) never meets a 405, and is not recorded.
 */
export const recording = Layer.effect(
  HttpRouter.HttpRouter,
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const { record } = yield* RouteMethods
    const recorded = (method: string, path: FindMyWay.PathInput) => {
      if (method !== "*") record(method, path)
    }
    return HttpRouter.HttpRouter.of({
      ...router,
      prefixed: () => {
        // Its routes reach the router with a prefix this one never sees.
        throw new Error("the routes of a prefixed router would not be recorded: add them with their whole path")
      },
      add: (method, path, handler, options) => {
        recorded(method, path)
        return router.add(method, path, handler, options)
      },
      addAll: (routes) => {
        for (const route of routes) recorded(route.method, route.path)
        return router.addAll(routes)
      }
    })
  })
)
