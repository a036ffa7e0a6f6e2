// Where the repository's property tests are: every TypeScript file of packages/* and apps/* that imports fast-check,
// with the vitest project config that runs it (the config whose `include` covers the file's folder).
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"

export const root = new URL("../..", import.meta.url).pathname

const typeScriptFiles = (dir) =>
  readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === "dist") return []
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return typeScriptFiles(path)
    return path.endsWith(".ts") ? [path] : []
  })

const packageDirs = ["packages", "apps"].flatMap((group) =>
  readdirSync(join(root, group))
    .map((name) => join(root, group, name))
    .filter((dir) => statSync(dir).isDirectory())
)

/** A project config's folders: the first segment of each `include` pattern ("test/**\/*.test.ts" → "test"). */
const configsOf = (dir) =>
  readdirSync(dir)
    .filter((name) => /^vitest(\.[a-z]+)?\.config\.ts$/.test(name))
    .map((name) => {
      const text = readFileSync(join(dir, name), "utf8")
      const include = text.match(/include:\s*\[([^\]]*)\]/)?.[1] ?? ""
      const folders = [...include.matchAll(/["']([^"'/*]+)\//g)].map((match) => match[1])
      return { path: join(dir, name), text, folders }
    })

export const propertyTestFiles = () =>
  packageDirs.flatMap((dir) => {
    const configs = configsOf(dir)
    return typeScriptFiles(dir)
      .filter((file) => /from\s+["']fast-check["']/.test(readFileSync(file, "utf8")))
      .map((file) => {
        const inPackage = relative(dir, file)
        const config = configs.find((candidate) =>
          candidate.folders.some((folder) => inPackage.startsWith(`${folder}/`))
        )
        return { file: relative(root, file), config: config === undefined ? undefined : relative(root, config.path) }
      })
  })
