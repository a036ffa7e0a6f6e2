import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "sql-pglite",
    include: ["test/**/*.test.ts"]
  }
})
