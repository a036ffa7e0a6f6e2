import { defineProject } from "vitest/config"

// The hosted checkout page driven in headless Chromium (`pnpm test:browser`); needs Debian's chromium.
export default defineProject({
  test: {
    name: "browser",
    include: ["browser/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
