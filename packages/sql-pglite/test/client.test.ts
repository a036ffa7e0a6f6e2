// Queries, statement helpers, JSON and the sql-pg type mapping of the PGlite client.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { PgliteClient } from "../src/index.js"

describe("PgliteClient", () => {
  it.layer(PgliteClient.layer({}))("queries", (it) => {
    it.effect("runs parameterised queries", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql`SELECT ${1} + ${2} AS sum, ${"hello"} AS greeting, ${null}::text AS nothing`
        expect(rows).toEqual([{ sum: 3, greeting: "hello", nothing: null }])
        expect(sql.driver).toBe("pglite")
      })
    )

    it.effect("compiles the Postgres dialect", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const [text, params] = sql`SELECT * FROM ${sql("my.table")} WHERE a = ${1} AND b IN ${sql.in([2, 3])}`.compile()
        expect(text).toBe(`SELECT * FROM "my"."table" WHERE a = $1 AND b IN ($2,$3)`)
        expect(params).toEqual([1, 2, 3])
      })
    )

    it.effect("inserts and updates with the helpers", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE people (id serial PRIMARY KEY, name text NOT NULL, age int)`
        const inserted = yield* sql<{ id: number; name: string; age: number }>`INSERT INTO people ${sql.insert([
          { name: "ana", age: 30 },
          { name: "bia", age: 40 }
        ])} RETURNING *`
        expect(inserted).toEqual([
          { id: 1, name: "ana", age: 30 },
          { id: 2, name: "bia", age: 40 }
        ])

        yield* sql`UPDATE people SET ${sql.update({ id: 1, age: 31 }, ["id"])} WHERE id = ${1}`
        yield* sql`UPDATE people SET age = data.age FROM ${sql.updateValues([{ name: "bia", age: 41 }], "data")} WHERE people.name = data.name`
        const rows = yield* sql`SELECT name, age FROM people ORDER BY id`
        expect(rows).toEqual([
          { name: "ana", age: 31 },
          { name: "bia", age: 41 }
        ])
      })
    )

    it.effect("supports in, and, or, literal and unsafe", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE letters (letter text, rank int)`
        yield* sql`INSERT INTO letters ${sql.insert([
          { letter: "a", rank: 0 },
          { letter: "b", rank: 1 },
          { letter: "c", rank: 2 }
        ])}`

        const names = (rows: ReadonlyArray<Record<string, unknown>>) => rows.map((row) => row.letter)
        expect(
          names(yield* sql`SELECT letter FROM letters WHERE letter IN ${sql.in(["a", "c"])} ORDER BY rank`)
        ).toEqual(["a", "c"])
        expect(names(yield* sql`SELECT letter FROM letters WHERE ${sql.in("letter", ["b"])}`)).toEqual(["b"])
        expect(yield* sql`SELECT letter FROM letters WHERE letter IN ${sql.in([])}`).toEqual([])
        expect(names(yield* sql`SELECT letter FROM letters WHERE letter NOT IN ${sql.in([])} ORDER BY rank`)).toEqual([
          "a",
          "b",
          "c"
        ])
        expect(
          names(yield* sql`SELECT letter FROM letters WHERE ${sql.and([sql`rank > ${0}`, sql`letter <> ${"c"}`])}`)
        ).toEqual(["b"])
        expect(
          names(
            yield* sql`SELECT letter FROM letters WHERE ${sql.or([sql`rank = ${0}`, "letter = 'c'"])} ORDER BY rank`
          )
        ).toEqual(["a", "c"])
        expect(names(yield* sql`SELECT letter FROM ${sql.literal("letters")} WHERE rank = 1`)).toEqual(["b"])
        expect(names(yield* sql.unsafe<{ letter: string }>("SELECT letter FROM letters WHERE rank = $1", [2]))).toEqual(
          ["c"]
        )
      })
    )

    it.effect("returns values, raw results and streams", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql`SELECT 1 AS a, 'b' AS b`.values).toEqual([[1, "b"]])
        const raw = (yield* sql`SELECT 1 AS a`.raw) as { readonly command: string }
        expect(raw.command).toBe("SELECT")
        const streamed = yield* Stream.runCollect(sql<{ n: number }>`SELECT generate_series(1, 3) AS n`.stream)
        expect(Array.from(streamed, (row) => row.n)).toEqual([1, 2, 3])
      })
    )

    it.effect("round-trips JSON parameters", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const client = yield* PgliteClient.PgliteClient
        yield* sql`CREATE TABLE docs (id serial PRIMARY KEY, body jsonb, plain json)`
        const document = { a: 1, b: [1, "two", null], c: { d: true } }

        const [fromObject] =
          yield* sql`INSERT INTO docs (body, plain) VALUES (${document}, ${document}) RETURNING body, plain`
        expect(fromObject).toEqual({ body: document, plain: document })

        const [fromHelper] = yield* sql`INSERT INTO docs ${sql.insert({ body: client.json([1, 2]) })} RETURNING body`
        expect(fromHelper).toEqual({ body: [1, 2] })

        const [fromString] = yield* sql`INSERT INTO docs (body) VALUES (${JSON.stringify("text")}) RETURNING body`
        expect(fromString).toEqual({ body: "text" })

        const contained = yield* sql`SELECT id FROM docs WHERE body @> ${{ c: { d: true } }}`
        expect(contained).toEqual([{ id: 1 }])
      })
    )

    it.effect("decodes types as @effect/sql-pg does", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<Record<string, unknown>>`SELECT
          9007199254740993::int8 AS big, 5::int8 AS small_big, NULL::int8 AS no_big,
          12.3400::numeric(10, 4) AS num, 'NaN'::numeric AS nan,
          '2024-03-04 05:06:07.123456+05:30'::timestamptz AS tstz,
          '1999-12-31 23:59:59.9995+00'::timestamptz AS before_epoch,
          'infinity'::timestamptz AS forever,
          '2024-03-04 05:06:07.5'::timestamp AS ts,
          true AS flag, false AS unflag,
          'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid AS id,
          '{"a": [1, {"b": null}]}'::jsonb AS doc, '[1, 2]'::json AS list,
          '2024-03-04'::date AS day, '0044-03-15 BC'::date AS ides,
          '12:34:56.789'::time AS clock,
          '12:00:00+05:30'::timetz AS india, '12:00:00+02'::timetz AS cairo,
          '1 year 2 mons 3 days 04:05:06.789'::interval AS span, '-1 days +02:03:00'::interval AS back,
          7::int2 AS small, 7::int4 AS normal, 1.5::float4 AS half, 0.1::float4 AS tenth, 2.5::float8 AS double,
          '\\x0102'::bytea AS bytes,
          ARRAY[1, 2]::int8[] AS bigs, ARRAY['2024-01-01 00:00:00+00'::timestamptz] AS instants,
          ARRAY[1, NULL]::int4[] AS ints`

        expect(row).toEqual({
          big: 9007199254740993n,
          small_big: 5n,
          no_big: null,
          num: "12.3400",
          nan: "NaN",
          tstz: new Date("2024-03-03T23:36:07.123Z"),
          before_epoch: new Date("2000-01-01T00:00:00.000Z"),
          forever: new Date(Number.NaN),
          ts: new Date("2024-03-04T05:06:07.500Z"),
          flag: true,
          unflag: false,
          id: "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
          doc: { a: [1, { b: null }] },
          list: [1, 2],
          day: "2024-03-04",
          ides: "-0043-03-15",
          clock: 45_296_789_000n,
          india: "12:00:00+05:30",
          cairo: "12:00:00+02:00",
          span: { months: 14, days: 3, microseconds: 14_706_789_000n },
          back: { months: 0, days: -1, microseconds: 7_380_000_000n },
          small: 7,
          normal: 7,
          half: 1.5,
          tenth: Math.fround(0.1),
          double: 2.5,
          bytes: new Uint8Array([1, 2]),
          bigs: [1n, 2n],
          instants: [new Date("2024-01-01T00:00:00.000Z")],
          ints: [1, null]
        })
        expect(Number.isNaN((row!.forever as Date).getTime())).toBe(true)
      })
    )

    it.effect("binds JS values with the types sql-pg infers", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const when = new Date("2024-05-06T07:08:09.123Z")
        const [row] = yield* sql`SELECT
          ${when} AS tstz, pg_typeof(${when})::text AS tstz_type,
          ${12n} AS big, pg_typeof(${12n})::text AS big_type,
          ${2 ** 40} AS wide, pg_typeof(${2 ** 40})::text AS wide_type,
          ${1.25} AS fraction, pg_typeof(${1.25})::text AS fraction_type,
          ${true} AS flag,
          ${new Uint8Array([9, 8])} AS bytes,
          ${[1, 2]} AS ints, pg_typeof(${[1, 2]})::text AS ints_type,
          ${["x", "y"]} AS texts`
        expect(row).toEqual({
          tstz: when,
          tstz_type: "timestamp with time zone",
          big: 12n,
          big_type: "bigint",
          wide: 2n ** 40n,
          wide_type: "bigint",
          fraction: 1.25,
          fraction_type: "double precision",
          flag: true,
          bytes: new Uint8Array([9, 8]),
          ints: [1, 2],
          ints_type: "integer[]",
          texts: ["x", "y"]
        })

        const [typed] = yield* sql`SELECT ${"2024-01-02"}::date AS day, ${"9007199254740993"}::int8 AS big`
        expect(typed).toEqual({ day: "2024-01-02", big: 9007199254740993n })
      })
    )

    it.effect("reports a unique violation as such", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE accounts (email text UNIQUE)`
        yield* sql`INSERT INTO accounts VALUES (${"a@example.com"})`
        const error = yield* Effect.flip(sql`INSERT INTO accounts VALUES (${"a@example.com"})`)
        expect(error._tag).toBe("SqlError")
        expect(error.reason._tag).toBe("UniqueViolation")
        expect(error.reason).toMatchObject({ constraint: "accounts_email_key" })
        expect(error.message).toContain("duplicate key")

        const syntax = yield* Effect.flip(sql`SELEC 1`)
        expect(syntax.reason._tag).toBe("SqlSyntaxError")
        const notNull = yield* Effect.flip(sql`INSERT INTO people (name) VALUES (NULL)`)
        expect(notNull.reason._tag).toBe("ConstraintError")
      })
    )
  })

  it.layer(
    PgliteClient.layer({
      transformQueryNames: (name) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      transformResultNames: (name) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())
    })
  )("name transforms", (it) => {
    it.effect("maps identifiers and result columns", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE ${sql("userProfiles")} (${sql("fullName")} text, settings jsonb)`
        yield* sql`INSERT INTO ${sql("userProfiles")} ${sql.insert({ fullName: "Ana", settings: { darkMode: true } })}`
        const rows = yield* sql`SELECT * FROM user_profiles`
        expect(rows).toEqual([{ fullName: "Ana", settings: { darkMode: true } }])
      })
    )
  })
})
