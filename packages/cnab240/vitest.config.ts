import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "cnab240",
    include: ["test/**/*.test.ts"],
    // fast-check on the seed and run count of FC_SEED and FC_RUNS_FACTOR (README: Property tests).
    globalSetup: ["../../scripts/property-tests/print-seed.mjs"],
    setupFiles: ["../../scripts/property-tests/setup.mjs"]
  }
})
