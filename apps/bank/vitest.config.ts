import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "bank",
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every file starts a bank of its own, in a directory of its own, and shares nothing with the others.
    isolate: false,
    // fast-check on the seed and run count of FC_SEED and FC_RUNS_FACTOR (README: Property tests).
    globalSetup: ["../../scripts/property-tests/print-seed.mjs"],
    setupFiles: ["../../scripts/property-tests/setup.mjs"]
  }
})
