// The packages other teams install: every library's manifest, exports, types and files as a consumer gets them.
// Libraries take effect and @effect/* as peers (one copy of effect per program), reach each other by `workspace:^`,
// and publish only to the company registry; apps are private. publint and attw judge each library's packed tarball.
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const root = new URL("..", import.meta.url).pathname
const manifests = ["packages", "apps"].flatMap((folder) =>
  readdirSync(join(root, folder)).map((name) => ({
    dir: join(root, folder, name),
    isApp: folder === "apps",
    pkg: JSON.parse(readFileSync(join(root, folder, name, "package.json"), "utf8"))
  }))
)

const problems = []
const peerOnly = (name) => name === "effect" || name.startsWith("@effect/")
for (const { pkg, isApp } of manifests) {
  const say = (text) => problems.push(`${pkg.name}: ${text}`)
  for (const [name, range] of Object.entries(pkg.dependencies ?? {})) {
    if (name.startsWith("@fatura/") && range !== "workspace:^") say(`${name} must be "workspace:^", not "${range}"`)
    if (!isApp && peerOnly(name)) say(`${name} is a dependency; a library takes it as a peer dependency`)
  }
  if (isApp) {
    if (pkg.private !== true) say("an app must be private")
    continue
  }
  if (pkg.private) say("a library must be publishable")
  for (const [name, range] of Object.entries(pkg.peerDependencies ?? {})) {
    if (!/^\^\d+\.\d+\.\d+$/.test(range)) say(`peer ${name} must be a caret range, not "${range}"`)
    if (pkg.devDependencies?.[name] === undefined) say(`peer ${name} must also be a dev dependency, for the workspace`)
  }
  if (pkg.publishConfig?.access !== "restricted") say('publishConfig.access must be "restricted"')
  // The registry is set once, in the root .npmrc, where `pnpm release` checks it; a publishConfig one would win.
  for (const key of Object.keys(pkg.publishConfig ?? {})) {
    if (key !== "access") say(`publishConfig.${key}: the registry is set in the root .npmrc only`)
  }
  if (pkg.scripts?.prepack !== "tsc --build") say('the "prepack" script must build, so a pack always ships dist')
  if (pkg.scripts?.prepublishOnly !== "node ../../scripts/release-guard.mjs") {
    say('the "prepublishOnly" script must be scripts/release-guard.mjs, so only `pnpm release` publishes')
  }
}

const run = (command, args, cwd) => {
  try {
    execFileSync(command, args, { cwd, stdio: "pipe", encoding: "utf8" })
  } catch (error) {
    problems.push(`${command} ${args.join(" ")} in ${cwd}:\n${error.stdout}${error.stderr}`)
  }
}
for (const { dir, isApp } of manifests) {
  if (isApp) continue
  run("publint", ["--strict", "--pack", "pnpm"], dir)
  run("attw", ["--pack", ".", "--profile", "esm-only", "--format", "ascii"], dir)
}

if (problems.length > 0) {
  console.error(problems.join("\n"))
  process.exit(1)
}
console.log(`packages: ${manifests.length} manifests, publint and attw clean`)
