import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "pix-api",
    include: ["test/**/*.test.ts"],
    // fast-check on the seed and run count of FC_SEED and FC_RUNS_FACTOR (README: Property tests).
    globalSetup: ["../../scripts/property-tests/print-seed.mjs"],
    setupFiles: ["../../scripts/property-tests/setup.mjs"],
    // Each file starts a local PSP of its own (apps/pix-psp) and waits, in real time, for tokens to expire and
    // returns to settle.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The files share nothing but the modules they load (effect, the PSP, the API Pix document): one worker reused
    // across files loads them once.
    isolate: false
  }
})
