import { defineConfig } from "vitest/config"

// `pnpm test:browser`: the suites that drive a real browser (they need Chromium, see the README).
export default defineConfig({
  test: {
    projects: ["apps/server/vitest.browser.config.ts"]
  }
})
