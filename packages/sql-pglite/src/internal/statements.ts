// Named prepared statements over PGlite's wire protocol. PGlite's own `query` parses and plans every statement anew,
// which in WebAssembly costs more than running it (a 4 KB select with subqueries: about 3 ms to plan, 1 ms to run).
// A statement with parameters is parsed once under a name and then only bound and executed, so PostgreSQL can keep
// its plan; the least recently used names are closed beyond a bound. A statement without parameters (transaction
// control, savepoints with ever-new names, DDL) is parsed and run unnamed. Each exchange is one call into PGlite.
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

  /**
   * Sends one extended-protocol exchange ending in Sync, as one buffer: one call into PGlite instead of one a message.
   * After an error the server skips to the Sync, so the session is ready for the next exchange either way.
   */
  const exchange = async (messages: ReadonlyArray<Uint8Array>, syncToFs: boolean) => {
    const all = [...messages, serialize.sync()]
    const buffer = new Uint8Array(all.reduce((length, message) => length + message.length, 0))
    let offset = 0
    for (const message of all) {
      buffer.set(message, offset)
      offset += message.length
    }
    return (await pglite.execProtocol(buffer, { syncToFs })).messages
  }

  const close = (statement: Prepared) => exchange([serialize.close({ type: "S", name: statement.name })], false)

  const prepare = async (key: string, sql: string, types: ReadonlyArray<number>): Promise<Prepared> => {
    const name = `fatura_sql_pglite_${named++}`
    const described = await exchange(
      [serialize.parse({ name, text: sql, types: [...types] }), serialize.describe({ type: "S", name })],
      false
    )
    const statement = { name, parameterTypes: parse.parseDescribeStatementResults(described) }
    prepared.set(key, statement)
    if (prepared.size > options.capacity) {
      const [oldestKey, oldest] = prepared.entries().next().value as [string, Prepared]
      prepared.delete(oldestKey)
      await close(oldest)
    }
    return statement
  }

  /** Binds `values` to a parsed statement (the unnamed one when `name` is empty), runs it and reads its rows. */
  const execute = async (
    before: ReadonlyArray<Uint8Array>,
    statement: Prepared,
    values: ReadonlyArray<unknown>,
    rowMode: RowMode
  ) => {
    const text = values.map((value, index) => {
      if (value === null || value === undefined) return null
      const serializer = serializerOf(statement.parameterTypes[index]!)
      return serializer === undefined ? String(value) : (serializer(value) as string)
    })
    const messages = await exchange(
      [
        ...before,
        serialize.bind({ statement: statement.name, values: text }),
        serialize.describe({ type: "P" }),
        serialize.execute({})
      ],
      true
    )
    return parse.parseResults(messages, defaultParsers(), { rowMode, parsers: options.parsers })[0] as Results<unknown>
  }

  const unnamed: Prepared = { name: "", parameterTypes: [] }

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
      return await execute([], statement, values, rowMode)
    } catch (cause) {
      if (!isStalePlan(cause)) throw cause
      prepared.delete(key)
      await close(statement)
      return await execute([], await prepare(key, sql, types), values, rowMode)
    }
  }

  /**
   * Runs one statement: prepared once per text and parameter types when it has parameters, else parsed and run in
   * one exchange as the unnamed statement.
   */
  return (sql: string, values: ReadonlyArray<unknown>, types: ReadonlyArray<number>, rowMode: RowMode) =>
    pglite.runExclusive(() =>
      values.length === 0
        ? execute([serialize.parse({ text: sql })], unnamed, [], rowMode)
        : run(sql, values, types, rowMode)
    )
}
