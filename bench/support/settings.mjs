// The bench's settings (from the environment), its targets, and its log; shared by bench/run.mjs and its modules.
import { fileURLToPath } from "node:url"

/** The repository's root. */
export const root = fileURLToPath(new URL("../..", import.meta.url))
const fromEnv = (name, fallback) => process.env[name] ?? fallback
const numberFromEnv = (name, fallback) => {
  const value = Number(fromEnv(name, fallback))
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`)
  return value
}
export const settings = {
  adminUrl: fromEnv("BENCH_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
  duration: numberFromEnv("BENCH_DURATION", 10),
  warmup: numberFromEnv("BENCH_WARMUP", 3),
  rounds: numberFromEnv("BENCH_ROUNDS", 2),
  connections: numberFromEnv("BENCH_CONNECTIONS", 32),
  seed: numberFromEnv("BENCH_SEED", 2000),
  seedEmbedded: numberFromEnv("BENCH_SEED_EMBEDDED", 300),
  payers: numberFromEnv("BENCH_PAYERS", 1000),
  samples: numberFromEnv("BENCH_SAMPLES", 200),
  sampleWarmup: numberFromEnv("BENCH_SAMPLE_WARMUP", 20)
}
// Issue 16's: near the hand-written baseline on Postgres, and a floor of requests/s on the embedded database.
export const targets = {
  throughputRatio: 0.9,
  p99Ratio: 1.3,
  rssMb: 256,
  embeddedRps: { "Search PGlite": 1000, "Create PGlite": 300 }
}
/** A run with more failed requests than this is reported as invalid. */
export const maxErrorRate = 0.01

export const started = Date.now()
export const log = (message) =>
  process.stderr.write(`bench ${((Date.now() - started) / 1000).toFixed(0)}s: ${message}\n`)
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
