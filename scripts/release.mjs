// `pnpm release`: builds, then publishes every library that the registry does not have yet with `changeset publish`,
// to the company registry and nowhere else. The registry is the `@fatura:registry` line of the root `.npmrc`;
// FATURA_REGISTRY points one run at another registry (the release test's throwaway one). The placeholder, an unset
// registry or the public npm registry are refused before anything is built. Arguments go to `changeset publish`
// (`--no-git-tag`, `--otp <code>`).
import { spawnSync } from "node:child_process"
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"

const root = new URL("..", import.meta.url).pathname
const publicRegistries = ["registry.npmjs.org", "registry.npmjs.com", "registry.yarnpkg.com"]

const configured = /^\s*@fatura:registry\s*=\s*(\S+)\s*$/m.exec(readFileSync(join(root, ".npmrc"), "utf8"))?.[1]
const registry = process.env.FATURA_REGISTRY || configured

const refusal = (() => {
  if (registry === undefined) return "the root .npmrc sets no @fatura:registry"
  let host
  try {
    host = new URL(registry).hostname
  } catch {
    return `@fatura:registry "${registry}" is not a URL`
  }
  if (host.endsWith(".invalid")) return `@fatura:registry is still the placeholder ${registry}`
  if (publicRegistries.includes(host)) return `@fatura:registry ${registry} is the public npm registry`
  return undefined
})()
if (refusal !== undefined) {
  console.error(
    `pnpm release refused: ${refusal}. Libraries go to the company registry only: set its address on the ` +
      "@fatura:registry line of the root .npmrc (README: Releasing), or FATURA_REGISTRY for one run."
  )
  process.exit(1)
}

const run = (command, args, env = process.env) => {
  const { status, error } = spawnSync(command, args, { cwd: root, stdio: "inherit", env })
  if (error !== undefined) throw error
  return status ?? 1
}

const bin = join(root, "node_modules", ".bin")
const built = run(join(bin, "tsc"), ["--build"])
if (built !== 0) process.exit(built)

// The registry goes to `pnpm info` and `pnpm publish` (and the `npm` they run) on their command line, where it
// outranks every .npmrc: changesets runs `pnpm` from PATH, and finds there first a launcher that adds it.
const launchers = mkdtempSync(join(tmpdir(), "fatura-release-"))
try {
  const pnpm = join(launchers, "pnpm")
  const pnpmCli = join(root, "node_modules", "pnpm", "bin", "pnpm.cjs")
  writeFileSync(
    pnpm,
    `#!${process.execPath}\nprocess.argv.push(${JSON.stringify(`--@fatura:registry=${registry}`)})\nrequire(${JSON.stringify(pnpmCli)})\n`
  )
  chmodSync(pnpm, 0o755)
  console.log(`publishing to ${registry}`)
  const changeset = join(root, "node_modules", "@changesets", "cli", "bin.js")
  process.exitCode = run(process.execPath, [changeset, "publish", ...process.argv.slice(2)], {
    ...process.env,
    // What every library's `prepublishOnly` asks for (scripts/release-guard.mjs).
    FATURA_RELEASE: "1",
    PATH: [launchers, bin, process.env.PATH].join(delimiter)
  })
} finally {
  rmSync(launchers, { recursive: true, force: true })
}
