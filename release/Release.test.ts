// `pnpm test:release`: the libraries as another team gets them. `pnpm release` publishes every library to a throwaway
// registry (Verdaccio, no uplinks); their manifests there must take effect only as a peer; a new project outside the
// repository installs @fatura/api and @fatura/domain from it next to effect from the npm registry, with exactly one
// copy of effect, and typechecks and runs the api README's example against a server from this checkout. A client
// generated from the server's OpenAPI document handles 400, 409 and 429 through the document's types.
import { type ChildProcess, spawn } from "node:child_process"
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort } from "../packages/api/test/support/FreePort.js"
import { expectMerchantSucceeded, runMerchant } from "../packages/api/test/support/MerchantRun.js"
import { type FaturaProcess, startFaturaProcess } from "./support/FaturaProcess.js"

const root = new URL("..", import.meta.url).pathname
const manifest = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8"))
const libraries: Array<{ name: string; version: string }> = readdirSync(join(root, "packages"))
  .map((name) => manifest(`packages/${name}/package.json`))
  .filter((pkg) => pkg.private !== true)
const effectVersion: string = manifest("package.json").devDependencies.effect
const typesNodeVersion: string = manifest("node_modules/@types/node/package.json").version
const openapiFetchVersion = "0.17.0"

interface Run {
  readonly exitCode: number | null
  readonly output: string
}

/** Runs a command to its end, with its output (stdout and stderr) kept for the assertions and their messages. */
const run = (command: string, args: ReadonlyArray<string>, options: { cwd: string; env?: NodeJS.ProcessEnv }) =>
  new Promise<Run>((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.once("error", reject)
    child.once("exit", (exitCode) => resolve({ exitCode, output }))
  })

const stop = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        child.once("exit", () => resolve())
        child.kill("SIGTERM")
      })

/** Every package.json of a package named `name` under `dir`, however deep: each is one installed copy. */
const copiesOf = (dir: string, name: string): Array<string> =>
  readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (!statSync(path).isDirectory()) return []
    const pkg = join(path, "package.json")
    const here = (() => {
      try {
        return JSON.parse(readFileSync(pkg, "utf8")).name === name ? [pkg] : []
      } catch {
        return []
      }
    })()
    return [...here, ...copiesOf(path, name)]
  })

const tsc = (cwd: string, files: ReadonlyArray<string>) => {
  writeFileSync(
    join(cwd, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: "ES2023",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        types: ["node"],
        skipLibCheck: false,
        noEmit: true,
        // The second check reuses what the first found in the libraries' declarations instead of checking them again.
        incremental: true,
        tsBuildInfoFile: "tsconfig.tsbuildinfo"
      },
      files
    })
  )
  return run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd })
}

describe("the published libraries", () => {
  const temporary: Array<string> = []
  let verdaccio: ChildProcess | undefined
  let registry: string
  let server: FaturaProcess | undefined
  let project: string
  let published: Run

  beforeAll(async () => {
    const registryDir = mkdtempSync(join(tmpdir(), "fatura-registry-"))
    temporary.push(registryDir)
    writeFileSync(
      join(registryDir, "config.yaml"),
      [
        `storage: ${join(registryDir, "storage")}`,
        "auth:",
        "  htpasswd:",
        `    file: ${join(registryDir, "htpasswd")}`,
        "uplinks: {}",
        "packages:",
        "  '@fatura/*':",
        "    access: $all",
        "    publish: $authenticated",
        "log: { type: stdout, format: pretty, level: warn }",
        ""
      ].join("\n")
    )
    const port = await freePort()
    registry = `http://127.0.0.1:${port}/`
    verdaccio = spawn(
      process.execPath,
      [join(root, "node_modules/verdaccio/bin/verdaccio"), "--config", "config.yaml", "--listen", `127.0.0.1:${port}`],
      { cwd: registryDir, stdio: "ignore" }
    )
    const deadline = Date.now() + 30_000
    while (
      !(await fetch(`${registry}-/ping`).then(
        (reply) => reply.ok,
        () => false
      ))
    ) {
      if (Date.now() > deadline || verdaccio.exitCode !== null) throw new Error("Verdaccio did not start")
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    // A user of the throwaway registry, and an npm user config that carries its token to `npm publish`.
    const signup = await fetch(`${registry}-/user/org.couchdb.user:release`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "release", password: "release-test" })
    })
    const { token } = (await signup.json()) as { token: string }
    const userconfig = join(registryDir, "npmrc")
    writeFileSync(userconfig, `//127.0.0.1:${port}/:_authToken=${token}\n`)

    // The server's rate limit is low so that a burst of the OpenAPI client meets it; the example stays far below it.
    const starting = startFaturaProcess({ FATURA_RATE_LIMIT: "5" })
    // Awaited below, after the release: a failed start is reported there, not as an unhandled rejection meanwhile.
    starting.catch(() => undefined)
    published = await run(process.execPath, [join(root, "node_modules/pnpm/bin/pnpm.cjs"), "release", "--no-git-tag"], {
      cwd: root,
      env: { FATURA_REGISTRY: registry, npm_config_userconfig: userconfig }
    })
    server = await starting

    project = mkdtempSync(join(tmpdir(), "fatura-consumer-"))
    temporary.push(project)
    writeFileSync(
      join(project, "package.json"),
      `${JSON.stringify({ name: "merchant", private: true, type: "module" }, null, 2)}\n`
    )
    writeFileSync(join(project, ".npmrc"), `@fatura:registry=${registry}\n`)
  }, 300_000)

  afterAll(async () => {
    if (server !== undefined) await server.stop()
    if (verdaccio !== undefined) await stop(verdaccio)
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
  })

  it("are all published by pnpm release", () => {
    expect(published.exitCode, published.output).toBe(0)
  })

  it("take effect and @effect/* only as peer dependencies", async () => {
    for (const library of libraries) {
      const reply = await fetch(`${registry}${library.name.replace("/", "%2f")}`)
      expect(reply.status, `${library.name} is not in the registry:\n${published.output}`).toBe(200)
      const document = (await reply.json()) as { versions: Record<string, Record<string, Record<string, string>>> }
      const version = document.versions[library.version]
      expect(version, `${library.name}@${library.version} is not in the registry`).toBeDefined()
      for (const field of ["dependencies", "optionalDependencies"]) {
        const bundled = Object.keys(version?.[field] ?? {}).filter(
          (name) => name === "effect" || name.startsWith("@effect/")
        )
        expect(
          bundled,
          `${library.name} publishes ${bundled.join(", ")} in ${field}: a library takes effect and @effect/* as ` +
            "peer dependencies, so that a program that installs it has one copy of effect"
        ).toEqual([])
      }
      expect(Object.keys(version?.peerDependencies ?? {}), library.name).toContain("effect")
    }
  })

  it("install next to effect from the npm registry, with one copy of effect", async () => {
    const installed = await run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        `@fatura/api@${manifest("packages/api/package.json").version}`,
        `@fatura/domain@${manifest("packages/domain/package.json").version}`,
        `effect@${effectVersion}`,
        `@types/node@${typesNodeVersion}`,
        `openapi-fetch@${openapiFetchVersion}`
      ],
      { cwd: project }
    )
    expect(installed.exitCode, installed.output).toBe(0)
    const copies = copiesOf(join(project, "node_modules"), "effect")
    expect(
      copies.map((path) => path.slice(project.length)),
      "one copy of effect"
    ).toEqual(["/node_modules/effect/package.json"])
    expect(JSON.parse(readFileSync(copies[0]!, "utf8")).version).toBe(effectVersion)
  }, 240_000)

  it("typecheck and run the api README's example against a server from this checkout", async () => {
    copyFileSync(join(root, "packages/api/examples/Merchant.ts"), join(project, "Merchant.ts"))
    const typechecked = await tsc(project, ["Merchant.ts"])
    expect(typechecked.exitCode, typechecked.output).toBe(0)
    expectMerchantSucceeded(await runMerchant(join(project, "Merchant.ts"), server!, project))
    expect(server!.contractProblems()).toEqual([])
  }, 240_000)

  it("serve an OpenAPI document from which a generated client handles 400, 409 and 429 by its types", async () => {
    const generated = await run(
      process.execPath,
      [
        join(root, "node_modules/openapi-typescript/bin/cli.js"),
        `${server!.url}/openapi.json`,
        "--output",
        join(project, "fatura-api.d.ts")
      ],
      { cwd: project }
    )
    expect(generated.exitCode, generated.output).toBe(0)
    copyFileSync(join(root, "release/OpenApiClient.ts"), join(project, "OpenApiClient.ts"))
    const typechecked = await tsc(project, ["OpenApiClient.ts"])
    expect(typechecked.exitCode, typechecked.output).toBe(0)
    const ran = await run(process.execPath, ["OpenApiClient.ts"], {
      cwd: project,
      env: { FATURA_URL: server!.url, FATURA_KEY: server!.secretKey }
    })
    expect(ran.exitCode, ran.output).toBe(0)
    expect(ran.output).toMatch(/^400 invalid_request: payer\.cpf_cnpj, payer\.email$/m)
    expect(ran.output).toMatch(/^409 idempotency_conflict: /m)
    expect(ran.output).toMatch(/^429 rate_limited within \d+ requests: retry after \d+ s$/m)
    expect(server!.contractProblems()).toEqual([])
  }, 240_000)
})
