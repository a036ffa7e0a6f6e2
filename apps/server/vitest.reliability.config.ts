import { defineProject } from "vitest/config"

// `pnpm test:reliability`: the server process under faults, on the local Postgres (see reliability/).
export default defineProject({
  test: {
    name: "reliability",
    include: ["reliability/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 600_000
  }
})
