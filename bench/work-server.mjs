// The child of bench/work.mjs: `fatura serve` as the CLI runs it (apps/server's `Serve.layer`, the JSON logger at
// LOG_LEVEL), plus two counters that do not depend on how busy the machine is. Fiber steps: the runtime hands every
// step of every fiber to the tracer's `context`, which here counts it and takes the step as the runtime would.
// Bytes allocated: what the heap grew by, plus what each garbage collection in between freed (v8's GCProfiler).
// On IPC, `start` zeroes them and `stop` answers with them and the process's CPU time since `start`.
import { createRequire } from "node:module"
import { GCProfiler, getHeapStatistics } from "node:v8"
import { Effect, Layer, Logger, References, Tracer } from "effect"
import * as Serve from "../apps/server/dist/Serve.js"
import * as ServerConfig from "../apps/server/dist/ServerConfig.js"

const fromServer = createRequire(new URL("../apps/server/package.json", import.meta.url))
const { NodeServices } = await import(fromServer.resolve("@effect/platform-node"))

const evaluate = "~effect/Effect/evaluate"
let steps = 0

const counting = Layer.effect(
  Tracer.Tracer,
  Effect.map(Effect.service(Tracer.Tracer), (native) =>
    Tracer.make({
      span: (options) => native.span(options),
      context: (primitive, fiber) => {
        steps++
        return primitive[evaluate](fiber)
      }
    })
  )
)

let window
process.on("message", (message) => {
  if (message === "start") {
    steps = 0
    const profiler = new GCProfiler()
    profiler.start()
    window = { profiler, used: getHeapStatistics().used_heap_size, cpu: process.cpuUsage() }
    process.send({ started: true })
  } else if (message === "stop") {
    const { statistics } = window.profiler.stop()
    const freed = statistics.reduce(
      (total, gc) => total + gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize,
      0
    )
    const cpu = process.cpuUsage(window.cpu)
    process.send({
      steps,
      allocatedBytes: getHeapStatistics().used_heap_size - window.used + freed,
      collections: statistics.length,
      cpuMicros: cpu.user + cpu.system
    })
  }
})

Effect.gen(function* () {
  const config = yield* ServerConfig.load
  return yield* Layer.launch(Serve.layer(config)).pipe(
    Effect.provideService(References.MinimumLogLevel, config.logLevel),
    Effect.provide(Logger.layer([Logger.consoleJson]))
  )
})
  .pipe(Effect.provide(counting), Effect.provide(NodeServices.layer), Effect.runPromiseExit)
  .then((exit) => {
    console.error(String(exit))
    process.exit(1)
  })
