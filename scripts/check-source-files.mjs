// `pnpm lint`: every source file of the workspace short enough to read, and no import cycle between files (issue 25).
// A source file is a .ts, .mts, .cts, .tsx, .js or .mjs file under packages/*, apps/*, scripts, bench or release,
// leaving out dist, node_modules and generated files (those whose first lines say so). One in packages application,
// persistence or http may have at most 300 lines, any other at most 400. An import is any `import`, `export … from`,
// `import type`, `import("…")` or `require("…")` naming a file: relative, or a workspace package (`@fatura/…`, read as
// the source its package.json `exports` builds from, `./dist/x.js` being `src/x.ts`). Prints every offender, then
// exits non-zero if there was one.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

const sourceExtensions = [".ts", ".mts", ".cts", ".tsx", ".js", ".mjs"]
const skippedDirectories = new Set(["dist", "node_modules", "generated", "coverage", "test-results"])
const strictPackages = ["packages/application/", "packages/persistence/", "packages/http/"]
export const strictLimit = 300
export const limit = 400

const isSource = (name) => sourceExtensions.some((extension) => name.endsWith(extension)) && !name.endsWith(".d.ts")

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".")) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return skippedDirectories.has(entry.name) ? [] : walk(path)
    return entry.isFile() && isSource(entry.name) ? [path] : []
  })

const subdirectories = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
        .map((entry) => join(dir, entry.name))
    : []

/** The workspace's packages (`packages/*`, `apps/*`) and the other folders of source. */
const workspace = (root) => {
  const packageDirs = [...subdirectories(join(root, "packages")), ...subdirectories(join(root, "apps"))].filter((dir) =>
    existsSync(join(dir, "package.json"))
  )
  const otherDirs = ["scripts", "bench", "release"].map((name) => join(root, name)).filter(existsSync)
  const packages = new Map(
    packageDirs.map((dir) => [JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name, dir])
  )
  return { packages, sourceDirs: [...packageDirs, ...otherDirs] }
}

const isGenerated = (text) =>
  /^(\/\/|\/\*|\s\*).*\b(@generated|auto-?generated|do not edit)\b/im.test(text.slice(0, 400))

const lineCount = (text) => (text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0))

/** The file a relative specifier names: as written, or the .ts a .js specifier is compiled from, or an index. */
const resolveFile = (base) => {
  const candidates = [base]
  const withoutJs = base.replace(/\.(m|c)?jsx?$/, "")
  if (withoutJs !== base) {
    const ext = base.slice(withoutJs.length)
    candidates.push(`${withoutJs}${ext.replace("js", "ts")}`, `${withoutJs}.tsx`)
  }
  candidates.push(...sourceExtensions.map((extension) => `${base}${extension}`))
  candidates.push(...sourceExtensions.map((extension) => join(base, `index${extension}`)))
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile())
}

/** The source file of a workspace package's export: `./dist/testing/index.js` is built from `src/testing/index.ts`. */
const resolvePackage = (packages, specifier) => {
  const name = specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/")
  const dir = packages.get(name)
  if (dir === undefined) return undefined
  const subpath = `.${specifier.slice(name.length)}`
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  const entry = manifest.exports?.[subpath]
  const target = typeof entry === "string" ? entry : (entry?.default ?? entry?.import ?? entry?.types)
  if (typeof target !== "string") return undefined
  return resolveFile(join(dir, target.replace(/^\.\/dist\//, "./src/").replace(/\.d\.ts$/, ".js")))
}

const importsOf = (file, text, packages) =>
  ts
    .preProcessFile(text, true, true)
    .importedFiles.map(({ fileName }) =>
      fileName.startsWith(".") ? resolveFile(resolve(dirname(file), fileName)) : resolvePackage(packages, fileName)
    )
    .filter((target) => target !== undefined)

/** The strongly connected components of more than one file (or a file importing itself): Tarjan's algorithm. */
const cyclesOf = (graph) => {
  const index = new Map()
  const low = new Map()
  const onStack = new Set()
  const stack = []
  const components = []
  let next = 0
  const visit = (start) => {
    // Iterative, so that a long chain of imports cannot overflow the call stack.
    const work = [[start, 0]]
    index.set(start, next)
    low.set(start, next)
    next++
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]
      const [node, position] = frame
      const edges = graph.get(node) ?? []
      if (position < edges.length) {
        frame[1]++
        const target = edges[position]
        if (!graph.has(target)) continue
        if (!index.has(target)) {
          index.set(target, next)
          low.set(target, next)
          next++
          stack.push(target)
          onStack.add(target)
          work.push([target, 0])
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)))
        }
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1][0]
        low.set(parent, Math.min(low.get(parent), low.get(node)))
      }
      if (low.get(node) === index.get(node)) {
        const component = []
        let member
        do {
          member = stack.pop()
          onStack.delete(member)
          component.push(member)
        } while (member !== node)
        if (component.length > 1 || edges.includes(node)) components.push(component)
      }
    }
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return components
}

/** One cycle through a component's files, shortest from its first file, for the message. */
const cycleThrough = (graph, component) => {
  const members = new Set(component)
  const [start] = [...component].sort()
  const previous = new Map([[start, undefined]])
  const queue = [start]
  while (queue.length > 0) {
    const node = queue.shift()
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue
      if (target === start) {
        const path = [node]
        while (previous.get(path[0]) !== undefined) path.unshift(previous.get(path[0]))
        return [...path, start]
      }
      if (!previous.has(target)) {
        previous.set(target, node)
        queue.push(target)
      }
    }
  }
  return [start, start]
}

/** Every file over its limit and every import cycle under `root`, each as a line to print. */
export const check = (root) => {
  const { packages, sourceDirs } = workspace(root)
  const name = (file) => relative(root, file)
  const oversize = []
  const graph = new Map()
  for (const file of sourceDirs.flatMap(walk).sort()) {
    const text = readFileSync(file, "utf8")
    if (isGenerated(text)) continue
    const max = strictPackages.some((prefix) => name(file).startsWith(prefix)) ? strictLimit : limit
    const lines = lineCount(text)
    if (lines > max) oversize.push(`${name(file)}: ${lines} lines, more than ${max}`)
    graph.set(file, [...new Set(importsOf(file, text, packages))])
  }
  const cycles = cyclesOf(graph)
    .map((component) => `import cycle: ${cycleThrough(graph, component).map(name).join(" → ")}`)
    .sort()
  return { oversize, cycles }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), ".."))
  const { oversize, cycles } = check(root)
  for (const line of [...oversize, ...cycles]) console.error(line)
  if (oversize.length + cycles.length > 0) {
    console.error(
      `${oversize.length} files over their limit (${strictLimit} lines in application, persistence and http, ` +
        `${limit} elsewhere) and ${cycles.length} import cycles`
    )
    process.exit(1)
  }
}
