// The bench's child processes (servers, the CLI), what they use (CPU, peak RSS), and the cleanup that stops them
// and undoes what the bench made, whatever happens.
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { log, root, sleep } from "./settings.mjs"

// ---- cleanup: every process and the database, whatever happens ----

const processes = new Set()
/** Steps run at cleanup, last pushed first. */
export const cleanups = []
/** The autocannon run under way, stopped at cleanup. */
export const running = { load: undefined }
let cleaningUp

export const cleanup = () => {
  cleaningUp ??= (async () => {
    running.load?.stop()
    await Promise.all([...processes].map((server) => stopProcess(server)))
    for (const step of cleanups.reverse()) {
      try {
        await step()
      } catch (error) {
        log(`cleanup: ${error.message}`)
      }
    }
  })()
  return cleaningUp
}

// ---- processes ----

export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/** Starts `node <args>` (this very node binary, so the pid is the server's own) and keeps its output. */
export const startProcess = (name, args, env) => {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
  const server = { name, child, pid: child.pid, stdout: "", stderr: "", exited: false }
  child.stdout.setEncoding("utf8").on("data", (text) => {
    server.stdout = (server.stdout + text).slice(-65536)
  })
  child.stderr.setEncoding("utf8").on("data", (text) => {
    server.stderr = (server.stderr + text).slice(-16384)
  })
  server.exit = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      server.exited = true
      processes.delete(server)
      resolve({ code, signal })
    })
  )
  processes.add(server)
  return server
}

export const stopProcess = async (server) => {
  if (server.exited) return
  server.child.kill("SIGTERM")
  const stopped = await Promise.race([server.exit.then(() => true), sleep(5000).then(() => false)])
  if (!stopped) {
    server.child.kill("SIGKILL")
    await server.exit
  }
}

export const failure = (server, message) =>
  new Error(
    `${server.name}: ${message}\n--- stdout ---\n${server.stdout.slice(-4000)}\n--- stderr ---\n${server.stderr}`
  )

export const waitUntilHealthy = async (server, url) => {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (server.exited) throw failure(server, "exited before answering /health")
    try {
      const response = await fetch(`${url}/health`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await sleep(100)
  }
  throw failure(server, "did not answer /health within 60 s")
}

/** A process and its descendants (the workers of `fatura serve --workers N`), by pid. */
const processTree = (pid) => {
  let children = []
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    // gone
  }
  return [pid, ...children.flatMap(processTree)]
}

/** Peak resident set size (VmHWM) of a running process, with its workers' added, in MB. */
export const peakRssMb = (server) =>
  processTree(server.pid).reduce((total, pid) => {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return total + (match === null ? Number.NaN : Number(match[1]) / 1024)
  }, 0)

/** CPU time (user + system) a process and its workers have used so far, in ms; ticks of 10 ms on Linux. */
export const cpuMsOf = (pid) =>
  processTree(pid).reduce((total, each) => {
    const stat = readFileSync(`/proc/${each}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return total + (Number(fields[11]) + Number(fields[12])) * 10
  }, 0)
