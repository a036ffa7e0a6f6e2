// The `fatura` command line of SPEC 12.2.
import { NodeServices } from "@effect/platform-node"
import { ApiKeys, Companies } from "@fatura/application"
import { Company, Document, FeePlan, PixKey } from "@fatura/domain"
import { Database, Migrations } from "@fatura/persistence"
import { Console, Effect, Layer, Logger, Option, References, Result, Schema } from "effect"
import { Argument, CliError, Command, Flag } from "effect/cli"
import * as Serve from "./Serve.js"
import * as ServerConfig from "./ServerConfig.js"
import * as Services from "./Services.js"
import * as Workers from "./Workers.js"

const servicesFromEnv = Layer.unwrap(
  Effect.map(ServerConfig.load, (config) =>
    Services.layer(Database.configFrom(config.databaseUrl, config.dataDir), config)
  )
)

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
    const config = yield* ServerConfig.load
    const applied = yield* Migrations.run.pipe(
      Effect.provide(Database.client(Database.configFrom(config.databaseUrl, config.dataDir)))
    )
    yield* Console.log(
      applied.length === 0
        ? "The database is up to date."
        : applied.map(([id, name]) => `applied ${id}_${name}`).join("\n")
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
      const companies = yield* Companies
      const registered = yield* companies
        .register({
          name: flags.name,
          cnpj: Result.getOrThrow(Document.parse(flags.cnpj)).number,
          email: flags.email,
          pixKey: Option.getOrUndefined(flags.pixKey),
          feePlan: Option.getOrUndefined(flags.feePlan)
        })
        .pipe(
          Effect.catchTag("PixKeyRequired", (required) =>
            Effect.fail(new CliError.UserError({ cause: required, userMessage: `${required.message} with --pix-key` }))
          )
        )
      if (flags.json) {
        yield* Console.log(
          JSON.stringify({
            company_id: registered.company.id,
            secret_key: registered.secretKey,
            webhook_secret: registered.webhookSecret
          })
        )
        return
      }
      yield* Console.log(
        [
          `company id           ${registered.company.id}`,
          `test secret key      ${registered.secretKey}`,
          `test webhook secret  ${registered.webhookSecret}`,
          "Both secrets are shown only now. A live key and its webhook secret: fatura keys create <id> --live."
        ].join("\n")
      )
    }).pipe(Effect.provide(servicesFromEnv))
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
        const companies = yield* Companies
        yield* companies.setBlock(companyId, kind, name === "block")
        yield* Console.log(`company ${companyId}: ${kind} ${name === "block" ? "blocked" : "unblocked"}`)
      }).pipe(Effect.provide(servicesFromEnv))
  ).pipe(Command.withDescription(`${name === "block" ? "Block" : "Unblock"} a company for one kind of operation`))

const companyPixKey = Command.make(
  "pix-key",
  {
    companyId: CompanyIdArgument,
    pixKey: Argument.String("key").pipe(Argument.withSchema(PixKeyText), Argument.withDescription(pixKeyForms))
  },
  ({ companyId, pixKey }) =>
    Effect.gen(function* () {
      const companies = yield* Companies
      const stored = yield* companies.setPixKey(companyId, pixKey)
      yield* Console.log(`company ${companyId}: pix key ${stored}`)
    }).pipe(Effect.provide(servicesFromEnv))
).pipe(Command.withDescription("Replace the pix key a company's pix payments go to"))

const company = Command.make("company").pipe(
  Command.withDescription("Manage companies"),
  Command.withSubcommands([companyCreate, companyPixKey, blockCommand("block"), blockCommand("unblock")])
)

const keysCreate = Command.make(
  "create",
  {
    companyId: CompanyIdArgument,
    live: Flag.Boolean("live").pipe(Flag.withDescription("Create a live key"), Flag.withDefault(false))
  },
  ({ companyId, live }) =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const mode = live ? "live" : "test"
      const issued = yield* keys.create(companyId, mode)
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
    }).pipe(Effect.provide(servicesFromEnv))
).pipe(
  Command.withDescription(
    "Create a secret key for a company; it is printed once, with the mode's webhook secret when the company had none"
  )
)

const keysRevoke = Command.make(
  "revoke",
  { prefix: Argument.String("prefix").pipe(Argument.withDescription("The key's prefix, as `keys list` shows it")) },
  ({ prefix }) =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const revoked = yield* keys.revoke(prefix)
      yield* Console.log(revoked === 0 ? `no active key has the prefix ${prefix}` : `revoked ${revoked} key(s)`)
    }).pipe(Effect.provide(servicesFromEnv))
).pipe(Command.withDescription("Revoke the secret keys with this prefix"))

const keysList = Command.make("list", { companyId: CompanyIdArgument }, ({ companyId }) =>
  Effect.gen(function* () {
    const keys = yield* ApiKeys
    const records = yield* keys.list(companyId)
    for (const record of records) {
      const state = record.revokedAt === null ? "active" : `revoked ${record.revokedAt}`
      yield* Console.log(`${record.prefix}…  ${record.mode}  created ${record.createdAt}  ${state}`)
    }
  }).pipe(Effect.provide(servicesFromEnv))
).pipe(Command.withDescription("List a company's secret keys (prefixes only)"))

const keys = Command.make("keys").pipe(
  Command.withDescription("Manage secret keys"),
  Command.withSubcommands([keysCreate, keysRevoke, keysList])
)

export const fatura = Command.make("fatura").pipe(
  Command.withDescription("Fatura: payment invoices for Brazilian merchants"),
  Command.withSubcommands([serve, migrate, company, keys])
)

export const run = (version: string) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig.load
    return yield* Command.run(fatura, { version }).pipe(
      Effect.provideService(References.MinimumLogLevel, config.logLevel),
      Effect.provide(Logger.layer([Logger.consoleJson])),
      Effect.provide(NodeServices.layer)
    )
  })
