import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "api",
    include: ["test/**/*.test.ts"],
    // fast-check on the seed and run count of FC_SEED and FC_RUNS_FACTOR (README: Property tests).
    globalSetup: ["../../scripts/property-tests/print-seed.mjs"],
    setupFiles: ["../../scripts/property-tests/setup.mjs"],
    // The client's tests start a real server (PGlite takes a few seconds to boot, more on a busy machine).
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
