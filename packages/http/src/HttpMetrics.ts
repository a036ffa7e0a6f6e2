// The HTTP series of `/metrics` (SPEC 11.1): requests counted and timed by method, route and status. The route is
// the one the router matched, as the contract writes it (`/checkout/:secureId`), and a request no route answered is
// `unmatched`: no client can grow the series by inventing paths.
import type { Context } from "effect"
import { Metric } from "effect"

export const requests = Metric.counter("http_requests_total", {
  description: "HTTP requests answered, by method, route and status"
})

export const durations = Metric.histogram("http_request_duration_seconds", {
  description: "Time to answer HTTP requests, by method, route and status",
  boundaries: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
})

export const databaseConnections = Metric.gauge("db_connections", {
  description: "This process's database connections: open, active (running a statement) and max (the pool's size)"
})

export const unmatched = "unmatched"

type Series = readonly [requests: Metric.Counter<number>, durations: Metric.Histogram<number>]

/** The series of each method, route and status seen, made once: few, since Node takes only the methods it knows. */
const series = new Map<string, Series>()

const seriesOf = (method: string, route: string, status: number): Series => {
  const key = `${method} ${route} ${status}`
  let found = series.get(key)
  if (found === undefined) {
    const attributes = { method, route, status: String(status) }
    found = [Metric.withAttributes(requests, attributes), Metric.withAttributes(durations, attributes)]
    series.set(key, found)
  }
  return found
}

/** Counts and times one answer, in place, in the registry of `context`: it runs on every request. */
export const recordUnsafe = (
  context: Context.Context<never>,
  method: string,
  route: string,
  status: number,
  seconds: number
): void => {
  const [counted, timed] = seriesOf(method, route, status)
  counted.updateUnsafe(1, context)
  timed.updateUnsafe(seconds, context)
}
