import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "api",
    include: ["test/**/*.test.ts"],
    // fast-check on the seed and run count of FC_SEED and FC_RUNS_FACTOR (README: Property tests).
    globalSetup: ["../../scripts/property-tests/print-seed.mjs"],
    setupFiles: ["../../scripts/property-tests/setup.mjs"],
    // The client's tests start a server in their process, and the Merchant example runs as a process of its own.
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
