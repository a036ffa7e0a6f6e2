// Every package's README shows at least one example, and that example is a file its tests run: a block that follows
// `<!-- example: <path> -->` must be that file, byte for byte. No Markdown link of the repository's documents leaves
// the repository: relative links resolve to files inside it, and absolute ones go only to this machine.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const root = new URL("..", import.meta.url).pathname
const packageDirs = ["packages", "apps"].flatMap((folder) =>
  readdirSync(join(root, folder)).map((name) => join(root, folder, name))
)
const markdownUnder = (dir) =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((name) => {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) return markdownUnder(path)
        return path.endsWith(".md") ? [path] : []
      })
    : []
const documents = [
  join(root, "README.md"),
  ...markdownUnder(join(root, "docs")),
  ...packageDirs.map((dir) => join(dir, "README.md"))
]

// A library's README travels in its tarball: a link out of its folder is dead on the registry.
const published = new Set(
  packageDirs.filter((dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private !== true)
)

const problems = []
const examplePattern = /<!-- example: (\S+) -->\n```(?:ts|typescript|js|sh)\n([\s\S]*?)```/g
const linkPattern = /\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<(https?:\/\/[^>\s]+)>/g

for (const file of documents) {
  const name = relative(root, file)
  if (!existsSync(file)) {
    problems.push(`${name} is missing: every package has a README`)
    continue
  }
  const text = readFileSync(file, "utf8")
  const examples = [...text.matchAll(examplePattern)]
  if (packageDirs.includes(dirname(file)) && examples.length === 0) {
    problems.push(`${name} has no example (a fenced block after <!-- example: <file> -->)`)
  }
  for (const [, path, block] of examples) {
    const source = resolve(dirname(file), path)
    if (!existsSync(source)) problems.push(`${name}: the example ${path} does not exist`)
    else if (readFileSync(source, "utf8") !== block) problems.push(`${name}: the block differs from ${path}`)
  }
  for (const match of text.matchAll(linkPattern)) {
    const target = match[1] ?? match[2]
    if (target.startsWith("#") || target.startsWith("mailto:")) continue
    if (/^https?:\/\//.test(target)) {
      if (!/^https?:\/\/(localhost|127\.0\.0\.1)[:/]/.test(target)) problems.push(`${name} links outside: ${target}`)
      continue
    }
    const path = resolve(dirname(file), target.split("#")[0])
    if (relative(root, path).startsWith("..")) problems.push(`${name} links outside the repository: ${target}`)
    else if (published.has(dirname(file)) && relative(dirname(file), path).startsWith("..")) {
      problems.push(`${name} is published with its package, where ${target} does not exist`)
    } else if (!existsSync(path)) problems.push(`${name} links to a file that does not exist: ${target}`)
  }
}

if (problems.length > 0) {
  console.error(problems.join("\n"))
  process.exit(1)
}
console.log(`readmes: ${documents.length} documents, examples match their files, no link leaves the repository`)
