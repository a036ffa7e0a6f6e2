// For the tests that run a section of the README as its reader does: the section's text, its shell commands split
// as bash reads them, each run with bash and curl (the status held to), and what the README asks its reader to fill in
// (`export INVOICE=<secureId from the answer>`) filled in from what came back.
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"

export const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8")

/** The text of the section under `heading`, up to the next heading of the same level or above. */
export const section = (heading: string) => {
  const start = readme.indexOf(`\n${heading}\n`)
  if (start < 0) throw new Error(`the README has no section ${heading}`)
  const level = heading.indexOf(" ")
  const rest = readme.slice(start + heading.length + 2)
  const end = rest.search(new RegExp(`\\n#{1,${level}} `))
  return end < 0 ? rest : rest.slice(0, end)
}

/** The `sh` blocks of a section, each split into its commands (a command goes on while a quote is open or a line ends in `\`). */
export const commandsOf = (text: string): Array<string> =>
  [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(([, block]) => {
    const commands: Array<string> = []
    let current = ""
    let quote: "'" | '"' | null = null
    for (const line of (block ?? "").split("\n")) {
      current = current === "" ? line : `${current}\n${line}`
      for (let i = 0; i < line.length; i++) {
        const char = line[i]
        if (quote === null && char === "#" && (i === 0 || line[i - 1] === " ")) break
        if (char === "\\" && quote !== "'") i++
        else if (quote === null && (char === "'" || char === '"')) quote = char
        else if (char === quote) quote = null
      }
      if (quote === null && !line.endsWith("\\") && current.trim() !== "") {
        commands.push(current)
        current = ""
      }
    }
    return commands
  })

export interface Answer {
  readonly command: string
  readonly status: number
  readonly body: string
}

export const json = (answer: Answer) => {
  try {
    return JSON.parse(answer.body) as unknown
  } catch {
    return undefined
  }
}

/** The value at a dotted path (`invoice.token_checkout`, `data.0.id`) of a JSON answer. */
export const at = (value: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((inner, key) => (inner as Record<string, unknown> | undefined)?.[key], value)

/** A reader's shell: the answers so far, the variables exported, and how a command runs in `workDir`. */
export const reader = (workDir: string) => {
  const answers: Array<Answer> = []
  const env: Record<string, string> = {}

  /** What the README asks its reader to fill in, filled in from what came back. */
  const fillIn = (text: string) =>
    text.replace(/<([^<>]+?) from (the answer|POST [^>]+)>/g, (placeholder, path: string, source: string) => {
      const answer =
        source === "the answer"
          ? answers.at(-1)
          : answers.findLast((earlier) => earlier.command.includes(source.slice("POST ".length)))
      const value = answer === undefined ? undefined : at(json(answer), path)
      if (typeof value !== "string" && typeof value !== "number") {
        throw new Error(`${placeholder}: nothing there in ${answer?.body}`)
      }
      return String(value)
    })

  /** Runs a command with bash; curl prints the status after the body, so that every request can be held to it. */
  const run = (command: string) =>
    new Promise<Answer>((resolve, reject) => {
      const script = `curl() { command curl -w '\\n%{http_code}' "$@"; }\n${command}`
      const child = spawn("bash", ["-c", script], { cwd: workDir, env: { ...process.env, ...env } })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString()
      })
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString()
      })
      child.once("error", reject)
      child.once("exit", (code) => {
        if (code !== 0) return reject(new Error(`${command}\nexited with ${code}:\n${stdout}${stderr}`))
        const newline = stdout.lastIndexOf("\n")
        resolve({ command, status: Number(stdout.slice(newline + 1)), body: stdout.slice(0, newline) })
      })
    })

  /**
   * Takes a command as the reader would: an `export` sets its variable (filled in; `KEY` is `key`), anything else
   * runs and must succeed (2xx). The answer, or none for an export.
   */
  const take = async (command: string, key: string): Promise<Answer | undefined> => {
    const exported = /^export (\w+)=(.*?)(\s+#.*)?$/.exec(command)
    if (exported !== null) {
      const [, name = "", value = ""] = exported
      env[name] = name === "KEY" ? key : fillIn(value)
      return undefined
    }
    const answer = await run(fillIn(command))
    if (answer.status < 200 || answer.status >= 300) {
      throw new Error(`${command}\nanswered ${answer.status}: ${answer.body}`)
    }
    answers.push(answer)
    return answer
  }

  return { answers, env, run, fillIn, take }
}

/** Waits until `probe` answers something, every 100 ms, for at most `ms`: what it answered, or what `lastly` says. */
export const eventually = async <A>(
  probe: () => Promise<A | undefined> | A | undefined,
  ms: number,
  lastly: string
) => {
  const deadline = Date.now() + ms
  for (;;) {
    const found = await probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${lastly}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
