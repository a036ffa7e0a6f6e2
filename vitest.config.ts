import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    // Once per run: the migrated embedded database every suite's fresh PGlite database starts from.
    globalSetup: ["packages/persistence/test/support/migratedImage.setup.ts"],
    projects: [
      "packages/*",
      "apps/*",
      // The lint scripts' own tests (scripts/check-source-files.mjs).
      { test: { name: "scripts", include: ["scripts/test/**/*.test.mjs"] } },
      // The bench's own checks (its baseline sends the repository's statements), over the built packages.
      { test: { name: "bench", include: ["bench/test/**/*.test.mjs"] } }
    ]
  }
})
