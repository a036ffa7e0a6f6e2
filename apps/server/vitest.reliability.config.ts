import { defineProject } from "vitest/config"
import { runsFactor } from "../../scripts/property-tests/settings.mjs"

// `pnpm test:reliability`: the server process under faults, on the local Postgres (see reliability/).
export default defineProject({
  test: {
    name: "reliability",
    include: ["reliability/**/*.test.ts"],
    // fast-check on the seed and run count of FC_SEED and FC_RUNS_FACTOR (README: Property tests).
    globalSetup: ["../../scripts/property-tests/print-seed.mjs"],
    setupFiles: ["../../scripts/property-tests/setup.mjs"],
    // The hostile input sends FC_RUNS_FACTOR times its requests when exploring, and takes that much longer.
    testTimeout: 120_000 * runsFactor,
    hookTimeout: 600_000
  }
})
