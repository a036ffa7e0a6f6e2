// The real HTTP server, on a free loopback port, over a test database; with direct access to the use cases
// for arranging companies and keys the way the CLI does.

import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import {
  ApiKeys,
  type CardAcquirer,
  CardCharges,
  Companies,
  Expirations,
  KeyCacheTtl,
  type PixProvider,
  Postbacks,
  type PostbackTargets,
  type Registration
} from "@fatura/application"
import type { Company, Invoice } from "@fatura/domain"
import {
  CardVelocity,
  FaturaHttp,
  MetricsAccess,
  NodeServer,
  PixNotificationsHttp,
  RateLimiter,
  RequestLimits
} from "@fatura/http"
import { RedisTokenBuckets } from "@fatura/redis"
import { Clock, type Duration, Effect, Layer, Logger, ManagedRuntime, Option, References, Tracer } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import * as Services from "../../src/Services.js"
import { nextCnpj } from "./Cnpj.js"
import * as Contract from "./Contract.js"
import * as InMemoryServices from "./InMemoryServices.js"
import type { TestDatabase } from "./TestDatabases.js"

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

export interface RequestOptions {
  readonly key?: string
  readonly body?: unknown
  readonly rawBody?: string
  readonly headers?: Record<string, string>
}

/** A clock stopped at `at`: what the use cases read as now. */
const clockAt = (at: Date): Clock.Clock => {
  const millis = at.getTime()
  const nanos = BigInt(millis) * 1_000_000n
  return {
    currentTimeMillisUnsafe: () => millis,
    currentTimeMillis: Effect.succeed(millis),
    currentTimeNanosUnsafe: () => nanos,
    currentTimeNanos: Effect.succeed(nanos),
    monotonicTimeNanosUnsafe: () => nanos,
    monotonicTimeNanos: Effect.succeed(nanos),
    sleep: () => Effect.void
  }
}

export interface AppOptions {
  readonly allowPrivatePostbacks?: boolean
  /** Requests a second per key; by default too many to matter, so that only the tests of the limit meet it. */
  readonly rateLimitPerKey?: number
  /** Card tokenizations a minute per public token; the service's own default unless given. */
  readonly cardRateLimit?: number | undefined
  /**
   * A Redis to keep the rate limits in, as `REDIS_URL` does, but waited for up to 5 s: these tests hold the limits
   * counted there, not what a process decides alone when Redis is slow (the shared limit's own tests do that).
   * This process's memory unless given.
   */
  readonly redisUrl?: string | undefined
  /**
   * Provider calls a second all pix notifications may make; by default too many to matter, so that only the tests of
   * that allowance meet it.
   */
  readonly pixNotificationCallsPerSecond?: number
  /** How long a key's lookup is reused; the service's own default unless a test needs every request looked up. */
  readonly keyCacheTtl?: Duration.Input
  /** Where postbacks may go; the network check of SPEC 8.4 unless a test must reach loopback in live mode. */
  readonly postbackTargets?: Layer.Layer<PostbackTargets>
  /** The card acquirer; the sandbox's unless a test needs one that is slow, or loses its answers. */
  readonly cardAcquirer?: Layer.Layer<CardAcquirer>
  /** The pix provider; the sandbox's unless a test speaks to a PSP. */
  readonly pixProvider?: Layer.Layer<PixProvider, Services.PixProviderUnusable>
  /** The token `/metrics` asks for; without one, as without `FATURA_METRICS_TOKEN`, it is not served. */
  readonly metricsToken?: string
  /** A bank reached by its files, as `FATURA_BANK=cnab240` configures one; the sandbox's stand-ins unless given. */
  readonly bank?: Services.Settings["bank"]
  /** How the bank's files travel: its SFTP server unless a test needs a transport that fails on purpose. */
  readonly bankTransport?: Services.Settings["bankTransport"]
}

/** The use cases over `database`: a test database, or the in-memory ports (no SQL, nothing to start). */
const servicesOn = async (database: TestDatabase | InMemoryServices.InMemory, settings: Services.Settings) => {
  if (!("acquire" in database)) return { services: InMemoryServices.layer(settings), release: async () => {} }
  const { config, release } = await database.acquire()
  const services: ReturnType<typeof InMemoryServices.layer> = Services.layer(config, settings)
  return { services, release }
}

export const startApp = async (database: TestDatabase | InMemoryServices.InMemory, options: AppOptions = {}) => {
  const { services, release } = await servicesOn(database, {
    publicBaseUrl: "http://fatura.test",
    allowPrivatePostbacksInTest: options.allowPrivatePostbacks ?? true,
    postbackTargets: options.postbackTargets,
    cardAcquirer: options.cardAcquirer,
    pixProvider: options.pixProvider,
    bank: options.bank,
    bankTransport: options.bankTransport
  })
  // Every log line of every level, as the production JSON logger would write it, for tests that read logs.
  const logs: Array<string> = []
  const captureLogs = Layer.merge(
    Logger.layer([
      Logger.map(Logger.formatJson, (line) => {
        logs.push(line)
      })
    ]),
    Layer.succeed(References.MinimumLogLevel, "All")
  )
  // The SQL statements the service runs, by their text, while a test records them (`statementsDuring`).
  let statements: Array<string> | undefined
  const tracer = Tracer.make({
    span: (spanOptions) => {
      const span = new Tracer.NativeSpan(spanOptions)
      const recording = statements
      if (recording === undefined) return span
      const attribute = span.attribute.bind(span)
      span.attribute = (key, value) => {
        if (key === "db.query.text") recording.push(String(value))
        attribute(key, value)
      }
      return span
    }
  })
  const server = FaturaHttp.serve({ disableListenLog: true }).pipe(
    Layer.provide(Layer.succeed(RequestLimits.KeyRateLimit, options.rateLimitPerKey ?? 1_000_000)),
    Layer.provide(
      options.cardRateLimit === undefined
        ? Layer.empty
        : Layer.succeed(CardVelocity.CardRateLimit, options.cardRateLimit)
    ),
    Layer.provide(
      options.redisUrl === undefined
        ? Layer.empty
        : Layer.effect(
            RateLimiter.RateLimiter,
            Effect.flatMap(
              RedisTokenBuckets.make({ url: options.redisUrl, keyPrefix: "fatura:rate-limit:", timeout: "5 seconds" }),
              RateLimiter.shared
            )
          )
    ),
    Layer.provide(
      Layer.succeed(PixNotificationsHttp.ProviderCallsPerSecond, options.pixNotificationCallsPerSecond ?? 1_000_000)
    ),
    Layer.provide(Layer.succeed(MetricsAccess.MetricsToken, options.metricsToken ?? null)),
    Layer.provideMerge(NodeHttpServer.layer(NodeServer.create, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(services),
    Layer.provide(captureLogs),
    Layer.provide(Layer.succeed(Tracer.Tracer, tracer)),
    Layer.provide(options.keyCacheTtl === undefined ? Layer.empty : Layer.succeed(KeyCacheTtl, options.keyCacheTtl))
  )
  const runtime = ManagedRuntime.make(server)
  const address = await runtime.runPromise(
    Effect.gen(function* () {
      return (yield* HttpServer.HttpServer).address
    })
  )
  const baseUrl = HttpServer.formatAddress(address)

  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
    let body: string | undefined
    if (options.rawBody !== undefined || options.body !== undefined) {
      headers["content-type"] ??= "application/json"
      body = options.rawBody ?? JSON.stringify(options.body)
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
    const bytes = new Uint8Array(await response.arrayBuffer())
    Contract.check({ method, target: path, status: response.status, headers: new Map(response.headers), body: bytes })
    const text = new TextDecoder().decode(bytes)
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // Not JSON (the docs page): the text itself is the body.
    }
    return { status: response.status, headers: response.headers, body: parsed }
  }

  const registerCompany = (registration: Partial<Registration> = {}) =>
    runtime.runPromise(
      Effect.gen(function* () {
        const companies = yield* Companies
        return yield* companies.register({
          cnpj: nextCnpj(),
          name: "Padaria São João Ltda",
          email: "contato@padaria.example",
          ...registration
        })
      })
    )

  const createKey = (companyId: Company.CompanyId, mode: Invoice.Mode) =>
    runtime.runPromise(
      Effect.gen(function* () {
        return yield* (yield* ApiKeys).create(companyId, mode)
      })
    )

  const revokeKey = (prefix: string) =>
    runtime.runPromise(
      Effect.gen(function* () {
        return yield* (yield* ApiKeys).revoke({ _tag: "Prefix", prefix })
      })
    )

  const setBlock = (companyId: Company.CompanyId, block: Company.BlockKind, blocked: boolean) =>
    runtime.runPromise(
      Effect.gen(function* () {
        return yield* (yield* Companies).setBlock(companyId, block, blocked)
      })
    )

  /** Runs a query directly, for checks of what is stored: on a test database only. */
  const query = (statement: string) =>
    runtime.runPromise(
      Effect.gen(function* () {
        const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
        if (Option.isNone(sql)) return yield* Effect.die(new Error(`no SQL on ${database.name}: ${statement}`))
        return yield* sql.value.unsafe<Record<string, unknown>>(statement)
      })
    )

  const stop = async () => {
    await runtime.dispose()
    await release()
  }

  /** Runs one expiry sweep as if it were `at` now: time is injected, never waited for. */
  const sweepExpirationsAt = (at: Date) =>
    runtime.runPromise(
      Effect.gen(function* () {
        return yield* (yield* Expirations).sweep
      }).pipe(Effect.provideService(Clock.Clock, clockAt(at)))
    )

  /** Runs one sweep of card charges whose answer was lost, as if it were `at` now. */
  const sweepCardChargesAt = (at: Date) =>
    runtime.runPromise(
      Effect.gen(function* () {
        return yield* (yield* CardCharges).sweep
      }).pipe(Effect.provideService(Clock.Clock, clockAt(at)))
    )

  /** Runs one round of postback deliveries as worker `worker`, as if it were `at` now. */
  const deliverPostbacksAt = (at: Date, worker = "test-worker") =>
    runtime.runPromise(
      Effect.gen(function* () {
        return yield* (yield* Postbacks).deliverDue(worker)
      }).pipe(Effect.provideService(Clock.Clock, clockAt(at)))
    )

  /** Runs an effect of the server's own use cases: what its background rounds run, for a test to run it once. */
  const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<typeof services>>) => runtime.runPromise(effect)

  /** Every text value stored anywhere in the database, one string per row of every table. */
  const dumpAllTables = async () => {
    const tables = await query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
    )
    const rows: Array<string> = []
    for (const { table_name } of tables) {
      const dumped = await query(`SELECT row_to_json(t)::text AS row FROM "${String(table_name)}" t`)
      rows.push(...dumped.map((row) => String(row.row)))
    }
    return rows
  }

  /** The SQL statements run while `action` ran: the test must not run anything else meanwhile. */
  const statementsDuring = async (action: () => Promise<unknown>) => {
    const recorded: Array<string> = []
    statements = recorded
    try {
      await action()
    } finally {
      statements = undefined
    }
    return recorded
  }

  return {
    baseUrl,
    request,
    statementsDuring,
    registerCompany,
    createKey,
    revokeKey,
    setBlock,
    query,
    dumpAllTables,
    sweepExpirationsAt,
    sweepCardChargesAt,
    deliverPostbacksAt,
    run,
    logs,
    stop
  }
}

export type TestApp = Awaited<ReturnType<typeof startApp>>

export const pixRequest = (overrides: Record<string, unknown> = {}) => ({
  method: "pix",
  total_price_cents: 12_345,
  payer: { name: "Maria Souza", cpf_cnpj: "529.982.247-25", email: "maria@example.com", phone: "(11) 98888-7777" },
  ...overrides
})

export const nextYear = String(new Date().getUTCFullYear() + 1)

/** An approved test card, as a request or a tokenization carries it. */
export const testCard = {
  number: "4111 1111 1111 1111",
  first_name: "Maria",
  last_name: "Souza",
  month: "12",
  year: nextYear,
  security_code: "123"
}

/** A payer's payment of a pending card invoice with `testCard`, on its checkout (under `idempotencyKey` when given). */
export const payAsPayer = (
  app: TestApp,
  invoice: { secureId: string; invoice: { token_checkout: string } },
  idempotencyKey?: string
) =>
  app.request("POST", `/api/v2/public/invoices/${invoice.secureId}/pay?token=${invoice.invoice.token_checkout}`, {
    body: { card: testCard },
    ...(idempotencyKey === undefined ? {} : { headers: { "idempotency-key": idempotencyKey } })
  })

export const cardRequest = (card: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) =>
  pixRequest({ method: "credit_card", total_price_cents: 10_000, card: { ...testCard, ...card }, ...overrides })

/** How many replies had each status (with the error's code): what a concurrency test holds its outcome to. */
export const statusCounts = (replies: ReadonlyArray<Reply>) => {
  const counts: Record<string, number> = {}
  for (const reply of replies) {
    const label = reply.status < 300 ? String(reply.status) : `${reply.status} ${reply.body?.code}`
    counts[label] = (counts[label] ?? 0) + 1
  }
  return counts
}

/** A payer with the address a boleto needs. */
export const boletoPayer = {
  name: "João Ação Ltda",
  cpf_cnpj: "11.444.777/0001-61",
  email: "financeiro@acao.example",
  address_zip: "01310-100",
  address_line: "Avenida Paulista",
  address_number: "1000",
  address_complement: "conj. 12",
  address_city: "São Paulo",
  address_state: "SP"
}

export const boletoRequest = (overrides: Record<string, unknown> = {}) =>
  pixRequest({ method: "bank_slip", total_price_cents: 123_456, payer: boletoPayer, ...overrides })
