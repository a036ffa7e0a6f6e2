import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "server",
    isolate: false,
    include: ["test/**/*.test.ts"],
    // What only Postgres can show (the statements on its wire) runs where TEST_DATABASE_URL names one: `pnpm
    // test:postgres`, or `pnpm test` with it set.
    exclude: process.env.TEST_DATABASE_URL ? [] : ["test/**/*.postgres.test.ts"],
    // fast-check on the seed and run count of FC_SEED and FC_RUNS_FACTOR (README: Property tests).
    globalSetup: ["../../scripts/property-tests/print-seed.mjs"],
    setupFiles: ["../../scripts/property-tests/setup.mjs"],
    // Each file starts a server over a fresh database (PGlite takes a few seconds to boot).
    testTimeout: 30_000,
    // Longer than a server process may take to start (test/support/ServerProcess.ts), so that a slow start fails
    // with what it printed rather than with the hook's timeout.
    hookTimeout: 150_000
  }
})
