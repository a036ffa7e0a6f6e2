import { defineConfig } from "vitest/config"

// `pnpm test:reliability`: crash, database outage, hostile input, tenancy and card data against the real server
// process on Postgres (needs a local Postgres whose cluster the suite may stop and start, see the README).
export default defineConfig({
  test: {
    projects: ["apps/server/vitest.reliability.config.ts"]
  }
})
