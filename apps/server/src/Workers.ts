// `fatura serve --workers N`: this process starts N copies of itself that serve HTTP on one port — Node's cluster hands
// each new connection to one of them — and starts another when one dies. On SIGTERM or Ctrl-C it asks each to stop
// as a single server stops (SPEC 11.2) and returns once the last one has exited.
import cluster, { type Worker } from "node:cluster"
import { availableParallelism } from "node:os"
import type { Database } from "@fatura/persistence"
import { Deferred, Effect, Schema } from "effect"

/** Whether this process is a worker a primary started, which serves and leaves the rest to the primary. */
export const isWorker = cluster.isWorker

/** One per core on Postgres; one on the embedded database, which a single process holds. */
export const defaultCount = (database: Database.DatabaseConfig) =>
  database._tag === "Postgres" ? availableParallelism() : 1

/** A worker exited before it ever listened: whatever stopped it would stop the next one too. */
export class WorkerDidNotStart extends Schema.TaggedError<WorkerDidNotStart>()("WorkerDidNotStart", {
  pid: Schema.Number,
  exit: Schema.String
}) {
  override get message() {
    return `worker ${this.pid} exited (${this.exit}) before it listened; see its output above`
  }
}

/** How long the workers get to finish their requests once asked to stop: theirs, and a little more to exit. */
const stopGraceSeconds = "30 seconds"

const describeExit = (code: number | null, signal: string | null) =>
  signal === null ? `exit code ${code}` : `signal ${signal}`

const running = () =>
  Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && !worker.isDead())

/** SIGTERM to every worker, then waits until none is left (SIGKILL for those still there after the grace). */
const stopAll = Effect.callback<void>((resume) => {
  const onExit = () => {
    if (running().length > 0) return
    cluster.off("exit", onExit)
    resume(Effect.void)
  }
  cluster.on("exit", onExit)
  for (const worker of running()) worker.process.kill("SIGTERM")
  onExit()
}).pipe(
  Effect.timeoutOrElse({
    duration: stopGraceSeconds,
    orElse: () =>
      Effect.gen(function* () {
        const stuck = running()
        yield* Effect.logWarning(`${stuck.length} worker(s) still running after ${stopGraceSeconds}: killed`)
        for (const worker of stuck) worker.process.kill("SIGKILL")
      })
  })
)

/** Starts `count` workers and keeps that many running until interrupted, then stops them all. */
export const supervise = (count: number): Effect.Effect<never, WorkerDidNotStart> =>
  Effect.gen(function* () {
    const run = Effect.runForkWith(yield* Effect.context<never>())
    const didNotStart = yield* Deferred.make<never, WorkerDidNotStart>()
    const listened = new Set<number>()
    let stopping = false

    const onListening = (worker: Worker) => {
      listened.add(worker.id)
    }
    const onExit = (worker: Worker, code: number | null, signal: string | null) => {
      if (stopping) return
      const exit = describeExit(code, signal)
      const pid = worker.process.pid ?? 0
      if (!listened.has(worker.id)) {
        run(Deferred.fail(didNotStart, new WorkerDidNotStart({ pid, exit })))
        return
      }
      const replacement = cluster.fork()
      run(Effect.logWarning(`worker ${pid} exited (${exit}); started worker ${replacement.process.pid} instead`))
    }

    yield* Effect.acquireRelease(
      Effect.sync(() => {
        cluster.on("listening", onListening)
        cluster.on("exit", onExit)
        for (let started = 0; started < count; started++) cluster.fork()
      }),
      () =>
        Effect.suspend(() => {
          stopping = true
          cluster.off("listening", onListening)
          cluster.off("exit", onExit)
          return stopAll
        })
    )
    yield* Effect.logInfo(`serving with ${count} worker processes`)
    return yield* Deferred.await(didNotStart)
  }).pipe(Effect.scoped)
