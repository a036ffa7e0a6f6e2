// The `fatura` command line of SPEC 12.2.
import * as NodeServices from "@effect/platform-node/NodeServices"
import {
  AmbiguousKeyPrefix,
  CompanyNotFound,
  KeyNotFound,
  PixKeyRequired,
  StorageUnavailable
} from "@fatura/application"
import { BankAccount, Company, Document, FeePlan, PixKey } from "@fatura/domain"
import { Database, Migrations } from "@fatura/persistence"
import { Cause, Console, Effect, Layer, Logger, Option, Predicate, References, Result, Schema } from "effect"
import { Argument, CliError, CliOutput, Command, Flag } from "effect/cli"
import { RpcClientError } from "effect/rpc"
import { Admin, type KeyReference, local } from "./Administration.js"
import * as AdminSocket from "./AdminSocket.js"
import type * as ServeModule from "./Serve.js"
import * as ServerConfig from "./ServerConfig.js"
import * as Workers from "./Workers.js"

/** A failure in one line a person reads: what went wrong, in the CLI's words. */
const describe = (error: unknown): string => {
  if (error instanceof CompanyNotFound) return `no company with id ${error.companyId}`
  if (error instanceof PixKeyRequired) return `${error.message} with --pix-key`
  if (error instanceof BankAccount.InvalidBankAccount) return `--${bankAccountFlags[error.field]}: ${error.reason}`
  if (error instanceof KeyNotFound) return `no active secret key has the prefix ${error.prefix}`
  if (error instanceof AmbiguousKeyPrefix) {
    return `${error.count} active secret keys have the prefix ${error.prefix}: give the whole key to revoke one of them`
  }
  if (error instanceof StorageUnavailable) return `the database cannot be reached: ${error.message}`
  if (error instanceof RpcClientError.RpcClientError) {
    return `the server stopped answering before it said whether the command ran (${error.message}): check before running it again`
  }
  if (Predicate.hasProperty(error, "message") && typeof error.message === "string" && error.message !== "") {
    return error.message
  }
  return String(error)
}

/** The flag of `company bank-account` that each field of a bank account comes from. */
const bankAccountFlags: { readonly [F in BankAccount.InvalidBankAccount["field"]]: string } = {
  bankCode: "bank-code",
  agency: "agency",
  account: "account",
  digit: "digit"
}

const userError = (error: unknown) => new CliError.UserError({ cause: error, userMessage: describe(error) })

/**
 * Runs one of the procedures of `Administration`: in this process over the configured database, or — when the
 * embedded database is held by a running server — in that server, through its admin socket. Either way the command
 * prints the same and exits the same.
 */
const administer = <A, E>(
  procedure: (admin: Admin["Service"]) => Effect.Effect<A, E>,
  options: { readonly migrate: boolean } = { migrate: true }
) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig.load
    const database = Database.configFrom(config.databaseUrl, config.dataDir)
    // Only the embedded database is ever in use by another process: on Postgres the catch never applies.
    const admin = local(database, options).pipe(Layer.catchTag("DataDirInUse", AdminSocket.client))
    return yield* Effect.gen(function* () {
      return yield* procedure(yield* Admin)
    }).pipe(Effect.provide(admin))
  }).pipe(Effect.mapError(userError))

const CompanyIdArgument = Argument.Int("companyId").pipe(
  Argument.withDescription("The company's numeric id"),
  Argument.withSchema(Company.CompanyId)
)

const Cnpj = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((value: string) => {
      const parsed = Document.parse(value)
      if (Result.isFailure(parsed)) return parsed.failure.reason
      return parsed.success.type === "cnpj" || "must be a CNPJ"
    })
  )
)

const PixKeyText = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((value: string) => {
      const parsed = PixKey.parse(value)
      return Result.isSuccess(parsed) ? undefined : parsed.failure.reason
    })
  )
)

const pixKeyForms = "a CPF, a CNPJ, an email, a phone as +55 and 10 or 11 digits, or a random key (UUID)"

const FeePlanJson = Schema.fromJsonString(FeePlan.FeePlan)

/** The HTTP server, loaded only to serve: the other commands start in less time without it. */
const serveModule: Effect.Effect<typeof ServeModule> = Effect.promise(() => import("./Serve.js"))

const serve = Command.make(
  "serve",
  {
    workers: Flag.Int("workers").pipe(
      Flag.withSchema(Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1)))),
      Flag.withDescription(
        "Server processes sharing the port (default: one per core on Postgres; the embedded database takes only 1)"
      ),
      Flag.optional
    )
  },
  ({ workers }) =>
    Effect.gen(function* () {
      const config = yield* ServerConfig.load
      const Serve = yield* serveModule
      if (Workers.isWorker) return yield* Layer.launch(Serve.layer(config, "worker"))
      yield* Serve.announceMetrics(config)
      const database = Database.configFrom(config.databaseUrl, config.dataDir)
      const count = Option.getOrElse(workers, () => Workers.defaultCount(database))
      if (count === 1) return yield* Layer.launch(Serve.layer(config))
      if (database._tag === "Embedded") {
        return yield* new CliError.UserError({
          cause: "the embedded database is one process's",
          userMessage:
            `--workers ${count}: the embedded database is held by one process, so it serves with --workers 1; ` +
            "set DATABASE_URL to serve from several"
        })
      }
      // Once, here, before any worker starts: the workers skip it.
      yield* Migrations.run.pipe(Effect.provide(Database.client(database)))
      return yield* Workers.supervise(count)
    })
).pipe(Command.withDescription("Start the HTTP server (and, on the embedded database, the worker)"))

const migrate = Command.make("migrate", {}, () =>
  Effect.gen(function* () {
    const applied = yield* administer((admin) => admin.Migrate(), { migrate: false })
    yield* Console.log(
      applied.length === 0
        ? "The database is up to date."
        : applied.map(({ id, name }) => `applied ${id}_${name}`).join("\n")
    )
  })
).pipe(Command.withDescription("Apply the database migrations and exit"))

const companyCreate = Command.make(
  "create",
  {
    name: Flag.String("name").pipe(Flag.withDescription("Legal and display name of the company")),
    cnpj: Flag.String("cnpj").pipe(Flag.withSchema(Cnpj), Flag.withDescription("The company's CNPJ")),
    email: Flag.String("email").pipe(Flag.withDescription("Contact email")),
    pixKey: Flag.String("pix-key").pipe(
      Flag.withSchema(PixKeyText),
      Flag.withDescription(`The pix key payments go to: ${pixKeyForms} (default: the email)`),
      Flag.optional
    ),
    feePlan: Flag.String("fee-plan").pipe(
      Flag.withSchema(FeePlanJson),
      Flag.withDescription("A custom fee plan as JSON (default: the standard plan)"),
      Flag.optional
    ),
    json: Flag.Boolean("json").pipe(Flag.withDescription("Print JSON for machines"), Flag.withDefault(false))
  },
  (flags) =>
    Effect.gen(function* () {
      const registered = yield* administer((admin) =>
        admin.CompanyCreate({
          name: flags.name,
          cnpj: Result.getOrThrow(Document.parse(flags.cnpj)).number,
          email: flags.email,
          ...Option.match(flags.pixKey, { onNone: () => ({}), onSome: (pixKey) => ({ pixKey }) }),
          ...Option.match(flags.feePlan, { onNone: () => ({}), onSome: (feePlan) => ({ feePlan }) })
        })
      )
      if (flags.json) {
        yield* Console.log(
          JSON.stringify({
            company_id: registered.companyId,
            secret_key: registered.secretKey,
            webhook_secret: registered.webhookSecret
          })
        )
        return
      }
      yield* Console.log(
        [
          `company id           ${registered.companyId}`,
          `test secret key      ${registered.secretKey}`,
          `test webhook secret  ${registered.webhookSecret}`,
          "Both secrets are shown only now. A live key and its webhook secret: fatura keys create <id> --live."
        ].join("\n")
      )
    })
).pipe(Command.withDescription("Register a company; prints its id, a test secret key and its test webhook secret"))

const blockCommand = (name: "block" | "unblock") =>
  Command.make(
    name,
    {
      companyId: CompanyIdArgument,
      kind: Argument.Literals("kind", Company.BlockKind.literals).pipe(
        Argument.withDescription("system, processing, pix, card, bank_slip or sake")
      )
    },
    ({ companyId, kind }) =>
      Effect.gen(function* () {
        yield* administer((admin) => admin.CompanyBlock({ companyId, kind, blocked: name === "block" }))
        yield* Console.log(`company ${companyId}: ${kind} ${name === "block" ? "blocked" : "unblocked"}`)
      })
  ).pipe(Command.withDescription(`${name === "block" ? "Block" : "Unblock"} a company for one kind of operation`))

const companyPixKey = Command.make(
  "pix-key",
  {
    companyId: CompanyIdArgument,
    pixKey: Argument.String("key").pipe(Argument.withSchema(PixKeyText), Argument.withDescription(pixKeyForms))
  },
  ({ companyId, pixKey }) =>
    Effect.gen(function* () {
      const stored = yield* administer((admin) => admin.CompanyPixKey({ companyId, pixKey }))
      yield* Console.log(`company ${companyId}: pix key ${stored}`)
    })
).pipe(Command.withDescription("Replace the pix key a company's pix payments go to"))

const companyBankAccount = Command.make(
  "bank-account",
  {
    companyId: CompanyIdArgument,
    bankCode: Flag.String("bank-code").pipe(
      Flag.withDescription("The bank's 3-digit COMPE code (001 Banco do Brasil, 237 Bradesco, 341 Itaú, …)")
    ),
    agency: Flag.String("agency").pipe(Flag.withDescription("The agency, without its check digit")),
    account: Flag.String("account").pipe(Flag.withDescription("The account number, without its check digit")),
    digit: Flag.String("digit").pipe(Flag.withDescription("The account's check digit (a digit, or X)")),
    type: Flag.Literals("type", BankAccount.BankType.literals).pipe(
      Flag.withDescription("corrente (checking) or poupanca (savings)")
    )
  },
  ({ companyId, ...bankAccount }) =>
    Effect.gen(function* () {
      const stored = yield* administer((admin) => admin.CompanyBankAccount({ companyId, ...bankAccount }))
      yield* Console.log(
        `company ${companyId}: bank account ${stored.code} ${stored.name}, agency ${stored.agency}, ` +
          `account ${stored.account}-${stored.digit} (${stored.type})`
      )
    })
).pipe(
  Command.withDescription(
    "Replace the bank account a company's withdrawals go to; only this command sets it, never the API"
  )
)

const companyAutoWithdrawal = Command.make(
  "auto-withdrawal",
  {
    companyId: CompanyIdArgument,
    schedule: Argument.String("schedule").pipe(Argument.withDescription("daily, weekly:<1-5>, monthly:<1-28> or off"))
  },
  ({ companyId, schedule }) =>
    administer((admin) => admin.CompanyAutoWithdrawal({ companyId, schedule })).pipe(
      Effect.flatMap((stored) => Console.log(`company ${companyId}: automatic withdrawals ${stored}`))
    )
).pipe(Command.withDescription("Set the business days a company's available balance (less the fee) goes out"))

const company = Command.make("company").pipe(
  Command.withDescription("Manage companies"),
  Command.withSubcommands([
    companyCreate,
    companyPixKey,
    companyBankAccount,
    companyAutoWithdrawal,
    blockCommand("block"),
    blockCommand("unblock")
  ])
)

const keysCreate = Command.make(
  "create",
  {
    companyId: CompanyIdArgument,
    live: Flag.Boolean("live").pipe(Flag.withDescription("Create a live key"), Flag.withDefault(false))
  },
  ({ companyId, live }) =>
    Effect.gen(function* () {
      const mode = live ? "live" : "test"
      const issued = yield* administer((admin) => admin.KeysCreate({ companyId, mode }))
      // The key stays alone on the first line, for scripts that take it from there.
      yield* Console.log(issued.secretKey)
      if (issued.webhookSecret !== null) {
        yield* Console.log(
          [
            `${mode} webhook secret  ${issued.webhookSecret}`,
            `It signs the company's ${mode} postbacks. Both secrets are shown only now.`
          ].join("\n")
        )
      }
    })
).pipe(
  Command.withDescription(
    "Create a secret key for a company; it is printed once, with the mode's webhook secret when the company had none"
  )
)

/** A key's prefix as `keys list` prints it, with or without its ellipsis, or the whole secret key. */
const listedPrefix = /^(sk_(?:test|live)_[0-9A-Za-z]{8})(?:…|\.\.\.)?$/
const wholeKey = /^sk_(?:test|live)_[0-9A-Za-z]{32}$/

const KeyText = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter(
      (value: string) =>
        listedPrefix.test(value) ||
        wholeKey.test(value) ||
        "must be a key's prefix as `keys list` prints it (sk_test_ or sk_live_ and 8 characters, with or without …), " +
          "or the whole key"
    )
  )
)

const keyReference = (text: string): KeyReference =>
  wholeKey.test(text)
    ? { _tag: "SecretKey", secretKey: text }
    : { _tag: "Prefix", prefix: listedPrefix.exec(text)![1]! }

const keysRevoke = Command.make(
  "revoke",
  {
    key: Argument.String("prefix").pipe(
      Argument.withSchema(KeyText),
      Argument.map(keyReference),
      Argument.withDescription(
        "The key's prefix as `keys list` prints it (sk_test_AbCd1234…, with or without the …), or the whole key"
      )
    )
  },
  ({ key }) =>
    Effect.gen(function* () {
      const revoked = yield* administer((admin) => admin.KeysRevoke({ key }))
      yield* Console.log(`revoked ${revoked.prefix}…`)
    })
).pipe(Command.withDescription("Revoke the one active secret key with this prefix"))

const keysList = Command.make("list", { companyId: CompanyIdArgument }, ({ companyId }) =>
  Effect.gen(function* () {
    const records = yield* administer((admin) => admin.KeysList({ companyId }))
    for (const record of records) {
      const state = record.revokedAt === null ? "active" : `revoked ${record.revokedAt}`
      yield* Console.log(`${record.prefix}…  ${record.mode}  created ${record.createdAt}  ${state}`)
    }
  })
).pipe(Command.withDescription("List a company's secret keys (prefixes only)"))

const keys = Command.make("keys").pipe(
  Command.withDescription("Manage secret keys"),
  Command.withSubcommands([keysCreate, keysRevoke, keysList])
)

export const fatura = Command.make("fatura").pipe(
  Command.withDescription("Fatura: payment invoices for Brazilian merchants"),
  Command.withSubcommands([serve, migrate, company, keys])
)

/** Every failure the CLI prints, one line each on stderr: `fatura: ` and what went wrong. */
const formatter: CliOutput.Formatter = {
  ...CliOutput.defaultFormatter(),
  formatError: (error) => `fatura: ${error.message}`,
  formatErrors: (errors) => errors.map((error) => `fatura: ${error.message}`).join("\n")
}

/**
 * Says why the run failed, unless `Command.run` has: a failure in one line; a defect — a bug — with all there is to
 * report it. The failure stays, for the exit code.
 */
export const report = (cause: Cause.Cause<unknown>) => {
  if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
  const error = Cause.findErrorOption(cause)
  const said =
    Cause.hasDies(cause) || Option.isNone(error)
      ? Console.error(`fatura: an unexpected error, a bug; please report it with what follows\n${Cause.pretty(cause)}`)
      : CliError.isCliError(error.value)
        ? Effect.void
        : Console.error(`fatura: ${describe(error.value)}`)
  return Effect.andThen(said, Effect.failCause(cause))
}

/**
 * The program on `platform`, where it reads its arguments from and runs: this process's in `run`, or a test's, to run
 * a command without starting a process for it.
 */
export const runOn = (version: string, platform: Layer.Layer<NodeServices.NodeServices>) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig.load
    return yield* Command.run(fatura, { version }).pipe(
      Effect.provideService(References.MinimumLogLevel, config.logLevel),
      Effect.provide(Logger.layer([Logger.consoleJson])),
      Effect.provide(platform)
    )
  }).pipe(Effect.provide(CliOutput.layer(formatter)), Effect.catchCause(report))

export const run = (version: string) => runOn(version, NodeServices.layer)
