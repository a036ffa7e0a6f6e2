import { defineConfig } from "vitest/config"

// `pnpm test:release`: every library published by `pnpm release` to a throwaway registry, then installed and used by a
// new project outside the repository (release/). Needs the npm registry for effect and openapi-fetch.
export default defineConfig({
  test: {
    name: "release",
    include: ["release/**/*.test.ts"],
    // Its two files wait mostly on installs and on the registry, and share nothing: side by side, not one after the
    // other (Vitest's default on two cores would be one worker).
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 360_000
  }
})
