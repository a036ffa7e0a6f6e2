// The HTTP series of `/metrics` (SPEC 11.1): requests counted and timed by method, route and status. The route is
// the one the router matched, as the contract writes it (`/checkout/:secureId`), and a request no route answered is
// `unmatched`: no client can grow the series by inventing paths.
import { Effect, Metric } from "effect"

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

export const record = (method: string, route: string, status: number, seconds: number): Effect.Effect<void> => {
  const attributes = { method, route, status: String(status) }
  return Effect.andThen(
    Metric.update(Metric.withAttributes(requests, attributes), 1),
    Metric.update(Metric.withAttributes(durations, attributes), seconds)
  )
}
