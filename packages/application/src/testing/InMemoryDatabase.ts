// The one in-memory database the in-memory ports share, behaving as the SQL adapters' Postgres does where a use
// case can tell: a transaction's writes are seen by it alone until it commits and vanish if it fails, a savepoint
// takes back only its own; row locks are held until the transaction ends, and waiters queue behind them; two
// transactions that wait for each other are a deadlock, and one of them gives way; sequences never hand a number
// out twice, nor take one back when a transaction rolls back.
import { Cause, Context, Deferred, Effect, Exit, Layer, Ref, Schema } from "effect"
import { StorageUnavailable } from "../platform/Failures.js"
import type { Transactions } from "../platform/Transactions.js"
import { empty, type Tables } from "./InMemoryTables.js"

/** A write: from the tables as they are to the tables as they are after it. Run again on the tables at commit. */
export type Change = (tables: Tables) => Tables

export type Sequence =
  | "bankRemessas"
  | "bankPayoutReferences"
  | "companies"
  | "apiKeys"
  | "clients"
  | "cardReferences"
  | "invoices"
  | "ledgerEntries"
  | "refunds"
  | "receivables"
  | "events"
  | "deliveries"
  | "webhookSecrets"
  | "ourNumbers"

/** A write broke a rule the SQL schema enforces (a unique key, a check): a bug of the caller, so a defect. */
export class ConstraintViolated extends Schema.TaggedError<ConstraintViolated>()("ConstraintViolated", {
  constraint: Schema.String,
  message: Schema.String
}) {}

/** The transaction waited for one that waits for it; it gives way (the SQL adapters' deadlock, SQLSTATE 40P01). */
export class DeadlockDetected extends Schema.TaggedError<DeadlockDetected>()("DeadlockDetected", {
  message: Schema.String
}) {}

/** How many times a transaction that gave way in a deadlock runs again, as the SQL adapter's does. */
export const retries = 3

/** One run of an outermost transaction's body, shared by its savepoints. */
interface Run {
  /** A statement of this run gave way in a deadlock: the run must roll back, whatever the body made of it. */
  contended: boolean
}

interface Transaction {
  readonly database: object
  readonly run: Run
  /** What this transaction wrote, in order: replayed on the committed tables when it commits. */
  readonly writes: Array<Change>
  /** The locks it took, in order; a savepoint rolled back releases those taken after it. */
  readonly locks: Array<string>
  waitingFor: Transaction | undefined
  /** The committed tables of `viewVersion` with `writes` applied: what its statements read. */
  view: Tables | undefined
  viewVersion: number
}

interface Held {
  readonly holder: Transaction
  readonly released: Deferred.Deferred<void>
}

const CurrentTransaction = Context.Reference<Transaction | undefined>(
  "@fatura/application/testing/InMemoryDatabase/CurrentTransaction",
  { defaultValue: () => undefined }
)

const isLostConflict = (cause: Cause.Cause<unknown>) =>
  cause.reasons.some((reason) => Cause.isDieReason(reason) && reason.defect instanceof DeadlockDetected)

const busy = () => new StorageUnavailable({ message: "the database is busy with conflicting changes" })

export class InMemoryDatabase extends Context.Service<
  InMemoryDatabase,
  {
    /** Reads the tables as the current transaction sees them: the committed ones with its own writes. */
    readonly read: <A>(query: (tables: Tables) => A) => Effect.Effect<A>
    /** Writes in the current transaction, or in one of its own when there is none. */
    readonly write: (change: Change) => Effect.Effect<void>
    /** Takes a lock until the transaction ends, waiting for its holder; dies with `DeadlockDetected` on a cycle. */
    readonly lock: (key: string) => Effect.Effect<void>
    /** Takes a lock when it is free (or already this transaction's); never waits. */
    readonly tryLock: (key: string) => Effect.Effect<boolean>
    readonly nextval: (sequence: Sequence) => Effect.Effect<number>
    /** Runs a statement's reads and writes as one: in a savepoint of the current transaction, or alone. */
    readonly statement: <A, E, R>(body: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
    readonly withTransaction: Transactions["Service"]["withTransaction"]
    readonly external: Transactions["Service"]["external"]
  }
>()("@fatura/application/testing/InMemoryDatabase") {}

/** Refuses a write that the SQL schema would refuse. */
export const violated = (constraint: string, message: string) =>
  Effect.die(new ConstraintViolated({ constraint, message }))

export const make = Effect.gen(function* () {
  const identity = {}
  const committed = yield* Ref.make({ version: 0, tables: empty })
  const locks = yield* Ref.make<ReadonlyMap<string, Held>>(new Map())
  const sequences = yield* Ref.make<ReadonlyMap<Sequence, number>>(new Map())

  const begin = (run: Run): Transaction => ({
    database: identity,
    run,
    writes: [],
    locks: [],
    waitingFor: undefined,
    view: undefined,
    viewVersion: -1
  })

  const viewOf = (transaction: Transaction) =>
    Effect.map(Ref.get(committed), ({ version, tables }) => {
      if (transaction.view === undefined || transaction.viewVersion !== version) {
        transaction.view = transaction.writes.reduce((state, change) => change(state), tables)
        transaction.viewVersion = version
      }
      return transaction.view
    })

  /** Releases the transaction's locks from the `from`-th on, and wakes whoever waits for them. */
  const release = (transaction: Transaction, from: number) =>
    Effect.gen(function* () {
      const keys = transaction.locks.splice(from)
      const released = yield* Ref.modify(locks, (held) => {
        const next = new Map(held)
        const freed: Array<Deferred.Deferred<void>> = []
        for (const key of keys) {
          const lock = next.get(key)
          if (lock?.holder !== transaction) continue
          next.delete(key)
          freed.push(lock.released)
        }
        return [freed, next] as const
      })
      for (const deferred of released) yield* Deferred.succeed(deferred, undefined)
    })

  const commit = (transaction: Transaction) =>
    Ref.update(committed, ({ version, tables }) => ({
      version: version + 1,
      tables: transaction.writes.reduce((state, change) => change(state), tables)
    })).pipe(Effect.andThen(release(transaction, 0)))

  /** Runs `body` as a transaction of its own: committed when it succeeds, rolled back when it does not. */
  const transact = <A, E, R>(run: Run, body: Effect.Effect<A, E, R>) =>
    Effect.suspend(() => {
      const transaction = begin(run)
      return body.pipe(
        Effect.flatMap((value) =>
          // A deadlock's failure that the body turned into an answer still aborts the transaction, as in Postgres.
          run.contended
            ? Effect.die(new DeadlockDetected({ message: "the transaction gave way in a deadlock" }))
            : Effect.succeed(value)
        ),
        Effect.provideService(CurrentTransaction, transaction),
        Effect.onExit((exit) => (Exit.isSuccess(exit) ? commit(transaction) : release(transaction, 0)))
      )
    })

  const savepoint = <A, E, R>(transaction: Transaction, body: Effect.Effect<A, E, R>) =>
    Effect.suspend(() => {
      const writes = transaction.writes.length
      const held = transaction.locks.length
      return body.pipe(
        Effect.onError(() =>
          Effect.suspend(() => {
            transaction.writes.length = writes
            transaction.view = undefined
            return release(transaction, held)
          })
        )
      )
    })

  const current = Effect.map(Effect.service(CurrentTransaction), (transaction) =>
    transaction?.database === identity ? transaction : undefined
  )

  const inTransaction = <A>(use: (transaction: Transaction) => Effect.Effect<A>) =>
    Effect.flatMap(current, (transaction) =>
      transaction !== undefined
        ? use(transaction)
        : transact(
            { contended: false },
            Effect.flatMap(current, (started) => use(started!))
          )
    )

  const acquire = (transaction: Transaction, key: string, wait: boolean): Effect.Effect<boolean> =>
    Effect.gen(function* () {
      while (true) {
        const released = yield* Deferred.make<void>()
        const holder = yield* Ref.modify(locks, (held) => {
          const lock = held.get(key)
          return lock === undefined
            ? ([undefined, new Map(held).set(key, { holder: transaction, released })] as const)
            : ([lock, held] as const)
        })
        if (holder === undefined) {
          transaction.locks.push(key)
          return true
        }
        if (holder.holder === transaction) return true
        if (!wait) return false
        for (let other: Transaction | undefined = holder.holder; other !== undefined; other = other.waitingFor) {
          if (other === transaction) {
            transaction.run.contended = true
            return yield* Effect.die(new DeadlockDetected({ message: `deadlock waiting for ${key}` }))
          }
        }
        transaction.waitingFor = holder.holder
        yield* Deferred.await(holder.released).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              transaction.waitingFor = undefined
            })
          )
        )
      }
    })

  const statement = <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(current, (transaction) =>
      transaction !== undefined ? savepoint(transaction, body) : transact({ contended: false }, body)
    )

  /** The outermost transaction: run again, whole, when it gave way in a deadlock and did nothing outside. */
  const outermost = <A, E, R>(
    body: Effect.Effect<A, E, R>,
    retry: number
  ): Effect.Effect<A, E | StorageUnavailable, R> =>
    Effect.suspend(() => {
      const run: Run = { contended: false }
      return transact(run, body).pipe(
        Effect.catchCause((cause) => {
          if ((!run.contended && !isLostConflict(cause)) || Cause.hasInterrupts(cause)) return Effect.failCause(cause)
          if (retry >= retries) return Effect.fail(busy())
          return Effect.yieldNow.pipe(Effect.andThen(outermost(body, retry + 1)))
        })
      )
    })

  return InMemoryDatabase.of({
    read: (query) => inTransaction((transaction) => Effect.map(viewOf(transaction), query)),
    write: (change) =>
      inTransaction((transaction) =>
        Effect.sync(() => {
          transaction.writes.push(change)
          if (transaction.view !== undefined) transaction.view = change(transaction.view)
        })
      ),
    lock: (key) => inTransaction((transaction) => Effect.asVoid(acquire(transaction, key, true))),
    tryLock: (key) => inTransaction((transaction) => acquire(transaction, key, false)),
    nextval: (sequence) =>
      Ref.modify(sequences, (values) => {
        const next = (values.get(sequence) ?? 0) + 1
        return [next, new Map(values).set(sequence, next)] as const
      }),
    statement,
    withTransaction: <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, E | StorageUnavailable, R> =>
      Effect.flatMap(current, (transaction) =>
        transaction === undefined
          ? outermost(body, 0)
          : savepoint(transaction, body).pipe(
              Effect.catchCause((cause): Effect.Effect<never, E | StorageUnavailable> => {
                if (!isLostConflict(cause)) return Effect.failCause(cause)
                // Only the whole transaction can run again; the savepoint fails as the retries' end would.
                transaction.run.contended = true
                return Effect.fail(busy())
              })
            )
      ),
    external: (effect) =>
      Effect.flatMap(current, (transaction) =>
        transaction === undefined
          ? effect
          : Effect.die(new Error("a call outside the database was made inside a transaction; it was not made"))
      )
  })
})

/** A new, empty database. */
export const layer = Layer.effect(InMemoryDatabase, make)
