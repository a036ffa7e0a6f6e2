import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: [
      "packages/*",
      "apps/*",
      // The lint scripts' own tests (scripts/check-source-files.mjs).
      { test: { name: "scripts", include: ["scripts/test/**/*.test.mjs"] } }
    ]
  }
})
