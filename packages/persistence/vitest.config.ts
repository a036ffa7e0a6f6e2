import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "persistence",
    isolate: false,
    include: ["test/**/*.test.ts"],
    // Each suite boots its own database (the migration cases one per case): PGlite takes a few seconds to start,
    // Postgres to create and migrate one, and longer on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // fast-check on the seed and run count of FC_SEED and FC_RUNS_FACTOR (README: Property tests).
    globalSetup: ["../../scripts/property-tests/print-seed.mjs"],
    setupFiles: ["../../scripts/property-tests/setup.mjs"]
  }
})
