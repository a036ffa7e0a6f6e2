// Named prepared statements over PGlite's wire protocol. PGlite's own `query` parses and plans every statement anew,
// which in WebAssembly costs more than running it (a 4 KB select with subqueries: about 3 ms to plan, 1 ms to run).
// A statement with parameters is parsed once under a name and then only bound and executed, so PostgreSQL can keep
// its plan; the least recently used names are closed beyond a bound. A statement without parameters (transaction
// control, savepoints with ever-new names, DDL) goes through `query` as before.
import type { ParserOptions, PGlite, PGliteInterface, Results, RowMode, SerializerOptions } from "@electric-sql/pglite"
import { parse, protocol, types } from "@electric-sql/pglite"

interface Prepared {
  readonly name: string
  /** The type of each parameter, as PostgreSQL resolved it. */
  readonly parameterTypes: ReadonlyArray<number>
}

export interface Options {
  readonly parsers: ParserOptions
  readonly serializers: SerializerOptions
  /** How many statements stay prepared at once. */
  readonly capacity: number
}

/** PostgreSQL refuses to run a prepared statement whose result columns changed under it (a table altered since). */
const isStalePlan = (cause: unknown) =>
  typeof cause === "object" &&
  cause !== null &&
  (cause as { code?: unknown }).code === "0A000" &&
  String((cause as { message?: unknown }).message).includes("cached plan must not change result type")

export const make = (pglite: PGliteInterface, options: Options) => {
  const { serialize } = protocol
  const prepared = new Map<string, Prepared>()
  // As PGlite's `query` does: the instance's own codecs (those of array types are read from the database when it
  // starts), overridden by the client's.
  const instance = pglite as Partial<Pick<PGlite, "parsers" | "serializers">>
  const defaultParsers = () => instance.parsers ?? types.parsers
  const serializerOf = (type: number) =>
    options.serializers[type] ?? instance.serializers?.[type] ?? types.serializers[type]
  let named = 0

  const send = async (message: Uint8Array) => (await pglite.execProtocol(message, { syncToFs: false })).messages

  /** Ends an extended-protocol exchange (after an error too, which makes the server skip to the next Sync). */
  const sync = (syncToFs: boolean) => pglite.execProtocol(serialize.sync(), { syncToFs })

  const close = async (statement: Prepared) => {
    try {
      await send(serialize.close({ type: "S", name: statement.name }))
    } finally {
      await sync(false)
    }
  }

  const prepare = async (key: string, sql: string, types: ReadonlyArray<number>): Promise<Prepared> => {
    const name = `fatura_sql_pglite_${named++}`
    let described: ReadonlyArray<unknown>
    try {
      await send(serialize.parse({ name, text: sql, types: [...types] }))
      described = await send(serialize.describe({ type: "S", name }))
    } finally {
      await sync(false)
    }
    const statement = { name, parameterTypes: parse.parseDescribeStatementResults(described as never) }
    prepared.set(key, statement)
    if (prepared.size > options.capacity) {
      const [oldestKey, oldest] = prepared.entries().next().value as [string, Prepared]
      prepared.delete(oldestKey)
      await close(oldest)
    }
    return statement
  }

  const execute = async (statement: Prepared, values: ReadonlyArray<unknown>, rowMode: RowMode) => {
    const text = values.map((value, index) => {
      if (value === null || value === undefined) return null
      const serializer = serializerOf(statement.parameterTypes[index]!)
      return serializer === undefined ? String(value) : (serializer(value) as string)
    })
    const messages = []
    try {
      messages.push(
        ...(await send(serialize.bind({ statement: statement.name, values: text }))),
        ...(await send(serialize.describe({ type: "P" }))),
        ...(await send(serialize.execute({})))
      )
    } finally {
      messages.push(...(await sync(true)).messages)
    }
    return parse.parseResults(messages, defaultParsers(), { rowMode, parsers: options.parsers })[0] as Results<unknown>
  }

  const run = async (sql: string, values: ReadonlyArray<unknown>, types: ReadonlyArray<number>, rowMode: RowMode) => {
    const key = `${types.join(",")} ${sql}`
    const known = prepared.get(key)
    if (known !== undefined) {
      // Most recently used last: the first entry is the one a full cache closes.
      prepared.delete(key)
      prepared.set(key, known)
    }
    const statement = known ?? (await prepare(key, sql, types))
    try {
      return await execute(statement, values, rowMode)
    } catch (cause) {
      if (!isStalePlan(cause)) throw cause
      prepared.delete(key)
      await close(statement)
      return await execute(await prepare(key, sql, types), values, rowMode)
    }
  }

  /** Runs one statement, prepared once per text and parameter types when it has parameters. */
  return (sql: string, values: ReadonlyArray<unknown>, types: ReadonlyArray<number>, rowMode: RowMode) =>
    values.length === 0
      ? pglite.query(sql, [], { rowMode, parsers: options.parsers, serializers: options.serializers })
      : pglite.runExclusive(() => run(sql, values, types, rowMode))
}
