// `pnpm test:fuzz`: every test file with a property, outside the reliability suite (which needs a Postgres cluster it
// may stop), on a fresh seed and ten times the runs. FC_SEED and FC_RUNS_FACTOR, when set, replace those, so the
// seed a run printed replays it: `FC_SEED=<seed> pnpm test:fuzz`. Not part of CI: a fresh seed is exploration.
import { spawnSync } from "node:child_process"
import { randomInt } from "node:crypto"
import { propertyTestFiles, root } from "./files.mjs"

const files = propertyTestFiles()
  .filter(({ file, config }) => file.endsWith(".test.ts") && config !== undefined && !config.includes("reliability"))
  .map(({ file }) => file)

const env = {
  ...process.env,
  FC_SEED: process.env.FC_SEED?.trim() || String(randomInt(0, 2 ** 31)),
  FC_RUNS_FACTOR: process.env.FC_RUNS_FACTOR?.trim() || "10"
}
console.info(`fuzz: FC_SEED=${env.FC_SEED} FC_RUNS_FACTOR=${env.FC_RUNS_FACTOR} on ${files.join(" ")}`)
const run = spawnSync("vitest", ["run", ...files, ...process.argv.slice(2)], { cwd: root, env, stdio: "inherit" })
process.exit(run.status ?? 1)
