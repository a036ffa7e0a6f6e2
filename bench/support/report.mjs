// The bench's Markdown report: requests/s, latency, peak RSS and the ratios to the baseline, the targets marked.
import { invalidRuns } from "./load.mjs"
import { maxErrorRate, settings, targets } from "./settings.mjs"

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : "—")
const mark = (ok) => (ok ? "PASS" : "MISS")

export const report = ({ machine, load, results }) => {
  const lines = []
  lines.push(`Machine: ${machine}; ${load}`)
  lines.push(
    `Load: autocannon, ${settings.connections} connections, ${settings.rounds} × ${settings.duration} s per server ` +
      `on Postgres (alternating, ${settings.warmup} s warm-up before each), 1 × ${settings.duration} s with ` +
      `workers and on PGlite; ` +
      "req/s counts 2xx only"
  )
  lines.push("")
  lines.push(
    "| Scenario | req/s service | req/s baseline | req/s ratio | p50 ms service | p50 ms baseline | " +
      "p99 ms service | p99 ms baseline | p99 ratio | peak RSS MB service | peak RSS MB baseline | non-2xx |"
  )
  lines.push("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
  for (const row of results) {
    const { service, baseline } = row
    const throughputRatio = baseline ? service.rps / baseline.rps : Number.NaN
    const p99Ratio = baseline ? service.p99 / baseline.p99 : Number.NaN
    lines.push(
      `| ${row.scenario} | ${fixed(service.rps, 0)} | ${fixed(baseline?.rps, 0)} | ${fixed(throughputRatio, 2)} | ` +
        `${fixed(service.p50, 1)} | ${fixed(baseline?.p50, 1)} | ${fixed(service.p99, 1)} | ${fixed(baseline?.p99, 1)} | ` +
        `${fixed(p99Ratio, 2)} | ${fixed(row.serviceRssMb, 0)} | ${fixed(row.baselineRssMb, 0)} | ` +
        `${service.non2xx + service.errors}${baseline ? ` / ${baseline.non2xx + baseline.errors}` : ""} |`
    )
  }
  lines.push("")
  lines.push(
    `| Target | ${results.map((row) => row.scenario).join(" | ")} |\n|---|${results.map(() => "---").join("|")}|`
  )
  const targetRow = (label, cell) => `| ${label} | ${results.map(cell).join(" | ")} |`
  lines.push(
    targetRow(`req/s ratio ≥ ${targets.throughputRatio}`, (row) =>
      row.baseline
        ? `${mark(row.service.rps / row.baseline.rps >= targets.throughputRatio)} (${fixed(row.service.rps / row.baseline.rps, 2)})`
        : "n/a"
    )
  )
  lines.push(
    targetRow(`p99 ratio ≤ ${targets.p99Ratio}`, (row) =>
      row.baseline
        ? `${mark(row.service.p99 / row.baseline.p99 <= targets.p99Ratio)} (${fixed(row.service.p99 / row.baseline.p99, 2)})`
        : "n/a"
    )
  )
  lines.push(
    targetRow(
      `embedded req/s ≥ ${Object.entries(targets.embeddedRps)
        .map(([scenario, floor]) => `${floor} (${scenario.split(" ")[0]})`)
        .join(", ")}`,
      (row) => {
        const floor = targets.embeddedRps[row.scenario]
        return floor === undefined ? "n/a" : `${mark(row.service.rps >= floor)} (${fixed(row.service.rps, 0)})`
      }
    )
  )
  lines.push(
    targetRow(
      `service peak RSS ≤ ${targets.rssMb} MB`,
      (row) => `${mark(row.serviceRssMb <= targets.rssMb)} (${fixed(row.serviceRssMb, 0)} MB)`
    )
  )
  lines.push("")
  for (const row of results) {
    const servers = [
      ["service", row.service],
      ["baseline", row.baseline]
    ].filter(([, result]) => result !== undefined)
    const rounds = servers.map(([label, result]) => `${label} ${result.rounds.map((rps) => rps.toFixed(0)).join(", ")}`)
    const cpu = servers.map(([label, result]) => `${label} ${result.cpuMsPerRequest.toFixed(2)} ms`)
    lines.push(
      `- ${row.scenario}: req/s per round in the order run: ${rounds.join("; ")}. ` +
        `Server CPU per 2xx request: ${cpu.join("; ")}`
    )
  }
  lines.push("")
  lines.push(
    "Peak RSS is VmHWM of the whole server process over all its scenarios (the Postgres rows share one service " +
      "and one baseline process); for the rows with workers, the sum of every process's peak. non-2xx counts " +
      "service / baseline."
  )
  if (invalidRuns.length > 0) {
    lines.push("")
    lines.push(`INVALID: runs with more than ${maxErrorRate * 100} % errors:`)
    for (const message of invalidRuns) lines.push(`  - ${message}`)
  }
  return lines.join("\n")
}
