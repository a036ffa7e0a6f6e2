// The bench's requests: the create bodies, the seeding, and the autocannon runs with what they measured.
import autocannon from "autocannon"
import { cpuMsOf, running } from "./processes.mjs"
import { log, maxErrorRate, settings } from "./settings.mjs"

/** A valid CPF, formatted, for payer number `n`: the load spreads its invoices over many payers. */
const cpf = (n) => {
  const digits = String(100_000_001 + n * 9_973)
    .padStart(9, "0")
    .slice(0, 9)
    .split("")
    .map(Number)
  for (const length of [9, 10]) {
    let sum = 0
    for (let i = 0; i < length; i++) sum += digits[i] * (length + 1 - i)
    const rest = sum % 11
    digits.push(rest < 2 ? 0 : 11 - rest)
  }
  const text = digits.join("")
  return `${text.slice(0, 3)}.${text.slice(3, 6)}.${text.slice(6, 9)}-${text.slice(9)}`
}

const createBodies = Array.from({ length: settings.payers }, (_, n) =>
  JSON.stringify({
    method: "pix",
    total_price_cents: 12345,
    payer: { name: `Maria Souza ${n}`, cpf_cnpj: cpf(n), email: `maria${n}@example.com` },
    items: [{ name: "Pão de queijo", quantity: 3, unit_price: 4115 }]
  })
)

export const seed = async (url, key, count) => {
  const secureIds = []
  let next = 0
  let failed
  const worker = async () => {
    while (failed === undefined && next < count) {
      const body = createBodies[next++ % createBodies.length]
      const response = await fetch(`${url}/api/v2/invoices`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body
      })
      const text = await response.text()
      if (response.status !== 201) failed = `seeding: ${response.status} ${text.slice(0, 500)}`
      else secureIds.push(JSON.parse(text).secureId)
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
  if (failed !== undefined) throw new Error(failed)
  return secureIds
}

/** One autocannon run; `keep` says whether its numbers count (a warm-up's do not). */
const loadOnce = async (url, key, scenario, seconds) => {
  let next = 0
  const request =
    scenario.kind === "search"
      ? {
          method: "GET",
          setupRequest: (req) => {
            req.path = `/api/v2/invoices?id=${scenario.ids[next++ % scenario.ids.length]}`
            return req
          }
        }
      : {
          method: "POST",
          path: "/api/v2/invoices",
          setupRequest: (req) => {
            req.body = createBodies[next++ % createBodies.length]
            return req
          }
        }
  const latencies = []
  const instance = autocannon({
    url,
    connections: settings.connections,
    duration: seconds,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    requests: [request]
  })
  running.load = instance
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime)
  })
  const result = await new Promise((resolve, reject) => instance.then(resolve, reject))
  running.load = undefined
  const failures = result.non2xx + result.errors + result.timeouts
  return {
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: Object.keys(result.statusCodeStats ?? {}).join(","),
    errorRate: failures / Math.max(1, result["2xx"] + failures),
    seconds: result.duration,
    latencies
  }
}

export const percentile = (sorted, p) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

const emptyTotals = () => ({ ok: 0, non2xx: 0, errors: 0, seconds: 0, cpuMs: 0, latencies: [], rounds: [] })

const summary = (totals) => {
  const sorted = Float64Array.from(totals.latencies).sort()
  return {
    rps: totals.ok / totals.seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    non2xx: totals.non2xx,
    errors: totals.errors,
    errorRate: (totals.non2xx + totals.errors) / Math.max(1, totals.ok + totals.non2xx + totals.errors),
    rounds: totals.rounds,
    cpuMsPerRequest: totals.cpuMs / Math.max(1, totals.ok)
  }
}

export const invalidRuns = []

/** Loads each target in turn (service, baseline, service, baseline…), a warm-up before every measured run. */
export const loadAlternately = async (scenario, servers, rounds) => {
  const totals = new Map(servers.map((server) => [server.label, emptyTotals()]))
  for (let round = 1; round <= rounds; round++) {
    for (const server of servers) {
      await loadOnce(server.url, server.key, scenario, settings.warmup)
      const total = totals.get(server.label)
      const cpuBefore = cpuMsOf(server.pid)
      const run = await loadOnce(server.url, server.key, scenario, settings.duration)
      const cpuMs = cpuMsOf(server.pid) - cpuBefore
      total.cpuMs += cpuMs
      total.ok += run.ok
      total.non2xx += run.non2xx
      total.errors += run.errors
      total.seconds += run.seconds
      for (const latency of run.latencies) total.latencies.push(latency)
      const rps = run.ok / run.seconds
      total.rounds.push(rps)
      const sorted = Float64Array.from(run.latencies).sort()
      log(
        `${scenario.name} · ${server.label} · round ${round}: ${rps.toFixed(0)} req/s, p99 ${percentile(sorted, 99).toFixed(1)} ms, ` +
          `${(cpuMs / Math.max(1, run.ok)).toFixed(2)} ms server CPU/req, non-2xx ${run.non2xx}, errors ${run.errors} ` +
          `(status ${run.statusCodes || "none"})`
      )
      if (run.errorRate > maxErrorRate) {
        const message = `${scenario.name} · ${server.label} · round ${round}: ${(run.errorRate * 100).toFixed(1)} % of the requests failed (non-2xx ${run.non2xx}, errors ${run.errors})`
        invalidRuns.push(message)
        log(`!!! ${message}`)
      }
    }
  }
  return Object.fromEntries([...totals].map(([label, total]) => [label, summary(total)]))
}
