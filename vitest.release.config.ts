import { defineConfig } from "vitest/config"

// `pnpm test:release`: every library published by `pnpm release` to a throwaway registry, then installed and used by a
// new project outside the repository (release/). Needs the npm registry for effect and openapi-fetch.
export default defineConfig({
  test: {
    name: "release",
    include: ["release/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 360_000
  }
})
