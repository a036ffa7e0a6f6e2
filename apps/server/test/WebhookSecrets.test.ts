// SPEC 2, 4.8, 8.2: webhook secrets are kept per company and mode. A roll with a key of one mode makes a new secret
// for that mode only, and the secrets rolled within the last 24 h keep signing beside the new one, newest first — the
// two rolled last at most, so that a postback's signature header stays small however often a merchant rolls.
// Migration 0008 gives each mode the one secret that signed both before. Time is injected, never waited for.
// Live postbacks go to a loopback receiver here: where postbacks may go (SPEC 8.4) is Postbacks.test.ts's business.

import { createHmac } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Postback } from "@fatura/api"
import { PostbackTargets } from "@fatura/application"
import { type Company, FeePlan } from "@fatura/domain"
import { Database, Migrations } from "@fatura/persistence"
import { Clock, Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nextCnpj } from "./support/Cnpj.js"
import { inMemory } from "./support/InMemoryServices.js"
import { type Arrival, dueAt, type Receiver, startReceiver } from "./support/Receiver.js"
import { pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { type TestDatabase, testDatabases } from "./support/TestDatabases.js"

/** Every target passes as itself, loopback included, in both modes. */
const loopbackTargets = Layer.succeed(
  PostbackTargets,
  PostbackTargets.of({ check: (url) => Effect.succeed([new URL(url).hostname]) })
)

const hourMs = 3_600_000

const signatureOf = (arrival: Arrival) => String(arrival.headers["x-fatura-signature"])

/** The `v1=` entries of an arrival's signature, in the order sent. */
const signaturesOf = (arrival: Arrival) =>
  signatureOf(arrival)
    .split(",")
    .filter((part) => part.startsWith("v1="))
    .map((part) => part.slice(3))

/** What each of `secrets` signs for this arrival, in the order given. */
const expectedFor = (arrival: Arrival, secrets: ReadonlyArray<string>) => {
  const signedAt = /t=(\d+)/.exec(signatureOf(arrival))![1]
  return secrets.map((secret) => createHmac("sha256", secret).update(`${signedAt}.${arrival.body}`).digest("hex"))
}

/** The arrival was signed by exactly `secrets`, in this order, and the receiver's helper accepts each of them. */
const expectSignedBy = async (arrival: Arrival | undefined, secrets: ReadonlyArray<string>) => {
  expect(arrival).toBeDefined()
  expect(signaturesOf(arrival!)).toEqual(expectedFor(arrival!, secrets))
  const signedAt = Number(/t=(\d+)/.exec(signatureOf(arrival!))![1])
  for (const secret of secrets) {
    await expect(
      Postback.verifyPostback({ body: arrival!.body, signature: signatureOf(arrival!), secret, now: signedAt })
    ).resolves.toMatchObject({ type: "invoice.created" })
  }
}

/** The service's clock in milliseconds: Effect's, which the server in this process reads when a secret rolls. */
const serviceNow = () => Number(Effect.runSync(Clock.currentTimeNanos)) / 1_000_000

/**
 * Returns once the service's clock is past `instant` (a couple of milliseconds at most): the next roll then happens
 * after it, so that overlaps end at instants the injected clock, which counts whole milliseconds, tells apart.
 */
const spinPast = (instant: number) => {
  while (serviceNow() <= instant) {
    // Busy for a millisecond or two.
  }
}

const roll = async (app: TestApp, key: string) => {
  const rolled = await app.request("POST", "/api/v2/webhooks/secret/roll", { key })
  expect(rolled.status).toBe(200)
  expect(rolled.body.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/)
  return rolled.body.secret as string
}

describe.each([inMemory])("webhook secrets per mode on $name", (database) => {
  let app: TestApp
  let receiver: Receiver
  let path = 0

  beforeAll(async () => {
    app = await startApp(database, { postbackTargets: loopbackTargets })
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await app.stop()
    await receiver.stop()
  })

  /** Creates an invoice with a key, posting back to a path of its own; delivers at `at` (when due by default). */
  const postbackOf = async (key: string, at?: (createdAt: string) => Date) => {
    path += 1
    const target = `/secrets-${path}`
    const created = await app.request("POST", "/api/v2/invoices", {
      key,
      body: pixRequest({ postback_url: receiver.url(target) })
    })
    expect(created.status).toBe(201)
    await app.deliverPostbacksAt((at ?? dueAt)(created.body.createdAt))
    expect(receiver.at(target)).toHaveLength(1)
    return receiver.at(target)[0]
  }

  it("signs each mode with its own secrets: a roll of one mode leaves the other's signature alone", async () => {
    const { company, secretKey, webhookSecret: test0 } = await app.registerCompany()
    const live = await app.createKey(company.id, "live")
    const live0 = live.webhookSecret

    const test1 = await roll(app, secretKey)
    await expectSignedBy(await postbackOf(secretKey), [test1, test0])
    const liveAfterTestRoll = await postbackOf(live.secretKey)
    expect(signaturesOf(liveAfterTestRoll!)).toHaveLength(1)
    await expectSignedBy(liveAfterTestRoll, [live0!])
    for (const secret of [test0, test1]) {
      await expect(
        Postback.verifyPostback({
          body: liveAfterTestRoll!.body,
          signature: signatureOf(liveAfterTestRoll!),
          secret,
          now: Number(/t=(\d+)/.exec(signatureOf(liveAfterTestRoll!))![1])
        })
      ).rejects.toMatchObject({ reason: "signature_mismatch" })
    }

    const live1 = await roll(app, live.secretKey)
    await expectSignedBy(await postbackOf(live.secretKey), [live1, live0!])
    await expectSignedBy(await postbackOf(secretKey), [test1, test0])
  })

  it("makes the live secret with the company's first live key, shown once", async () => {
    const { company, webhookSecret: test0 } = await app.registerCompany()
    const live = await app.createKey(company.id, "live")
    expect(live.webhookSecret).toMatch(/^whsec_[0-9A-Za-z]{32}$/)
    expect(live.webhookSecret).not.toBe(test0)
    await expectSignedBy(await postbackOf(live.secretKey), [live.webhookSecret!])
    // The company has secrets of both modes now: later keys bring none.
    expect((await app.createKey(company.id, "live")).webhookSecret).toBeNull()
    expect((await app.createKey(company.id, "test")).webhookSecret).toBeNull()
  })

  it("keeps the secrets rolled within 24 h signing, newest first, and each stops 24 h after its roll", async () => {
    const { secretKey, webhookSecret: secret0 } = await app.registerCompany()
    // Each roll happens before the whole millisecond taken after it, and after the one taken after the roll before.
    const secret1 = await roll(app, secretKey)
    const afterFirst = Math.ceil(serviceNow())
    spinPast(afterFirst + 1)
    const secret2 = await roll(app, secretKey)
    const afterSecond = Math.ceil(serviceNow())

    await expectSignedBy(await postbackOf(secretKey), [secret2, secret1, secret0])
    const at = (instant: number) => () => new Date(instant)
    await expectSignedBy(await postbackOf(secretKey, at(afterFirst + 24 * hourMs)), [secret2, secret1])
    await expectSignedBy(await postbackOf(secretKey, at(afterSecond + 24 * hourMs)), [secret2])
    await expectSignedBy(await postbackOf(secretKey, at(afterSecond + 30 * 24 * hourMs)), [secret2])
  })

  it("signs with three secrets at most: a roll past them ends the oldest overlap at once", async () => {
    const { secretKey, webhookSecret: secret0 } = await app.registerCompany()
    const secret1 = await roll(app, secretKey)
    const secret2 = await roll(app, secretKey)
    await expectSignedBy(await postbackOf(secretKey), [secret2, secret1, secret0])
    const secret3 = await roll(app, secretKey)
    await expectSignedBy(await postbackOf(secretKey), [secret3, secret2, secret1])

    // However many rolls: three `v1=` entries, and a header a receiver takes (Node's limit is 16 KB for them all).
    const rolled: Array<string> = []
    for (let count = 0; count < 40; count++) rolled.push(await roll(app, secretKey))
    const arrival = await postbackOf(secretKey)
    await expectSignedBy(arrival, rolled.slice(-3).reverse())
    expect(signatureOf(arrival!).length).toBeLessThanOrEqual(
      `t=${"9".repeat(10)}`.length + 3 * `,v1=${"f".repeat(64)}`.length
    )
  })

  it("keeps the last of concurrent rolls, each superseding the one before it", async () => {
    const { secretKey, webhookSecret } = await app.registerCompany()
    const rolled = await Promise.all(Array.from({ length: 6 }, () => roll(app, secretKey)))
    const arrival = await postbackOf(secretKey)
    const signatures = signaturesOf(arrival!)
    expect(signatures).toHaveLength(3)
    // Three of the rolled secrets, the company's first one superseded long since.
    const signers = rolled.filter((secret) => signatures.includes(expectedFor(arrival!, [secret])[0]!))
    expect(signers).toHaveLength(3)
    expect(signatures).not.toContain(expectedFor(arrival!, [webhookSecret])[0])
    // The first is the current one: the next roll puts its secret first and this one, now superseded, behind it.
    const current = rolled.find((secret) => signatures[0] === expectedFor(arrival!, [secret])[0])
    expect(current).toBeDefined()
    const next = await roll(app, secretKey)
    const after = await postbackOf(secretKey)
    expect(signaturesOf(after!)).toHaveLength(3)
    expect(signaturesOf(after!).slice(0, 2)).toEqual(expectedFor(after!, [next, current!]))
  })
})

describe.each(testDatabases)("migration 0008 of webhook secrets on $name", (database) => {
  let app: TestApp
  let receiver: Receiver
  let path = 0
  const previousEndsAt = Date.now() + 12 * hourMs
  const secrets = {
    alone: `whsec_${"A".repeat(32)}`,
    current: `whsec_${"C".repeat(32)}`,
    overlapping: `whsec_${"O".repeat(32)}`,
    lapsed: `whsec_${"L".repeat(32)}`
  }
  const companies = { alone: 0, rolled: 0, rolledLongAgo: 0 }

  beforeAll(async () => {
    const acquired = await database.acquire()
    // The embedded database must outlive the client that writes the old data: it gets a directory.
    const dataDir = acquired.config._tag === "Embedded" ? mkdtempSync(join(tmpdir(), "fatura-secrets-")) : undefined
    const config: Database.DatabaseConfig = dataDir === undefined ? acquired.config : { _tag: "Embedded", dataDir }
    const before = ManagedRuntime.make(Database.client(config))
    try {
      await before.runPromise(Migrations.runThrough("0007_idempotency_claims_in_transaction"))
      const insert = (secret: string, previous: string | null, previousEnds: number | null) =>
        before.runPromise(
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const [row] = yield* sql<{ id: unknown }>`
              INSERT INTO companies (cnpj, corporate_reason, fantasy_name, email, fee_plan, is_custom, pix_key,
                                     webhook_secret, previous_webhook_secret, previous_webhook_secret_expires_at,
                                     created_at, updated_at)
              VALUES (${nextCnpj()}, 'Loja Antiga Ltda', 'Loja Antiga', 'loja@antiga.example',
                      ${JSON.stringify(FeePlan.defaultFeePlan)}::jsonb, false, 'loja@antiga.example', ${secret},
                      ${previous}, ${previousEnds === null ? null : new Date(previousEnds).toISOString()}::timestamptz,
                      now() - interval '30 days', now() - interval '30 days')
              RETURNING id`
            return Number(row!.id)
          })
        )
      companies.alone = await insert(secrets.alone, null, null)
      companies.rolled = await insert(secrets.current, secrets.overlapping, previousEndsAt)
      companies.rolledLongAgo = await insert(secrets.current, secrets.lapsed, Date.now() - 20 * 24 * hourMs)
    } finally {
      await before.dispose()
    }
    const migrated: TestDatabase = {
      name: database.name,
      acquire: async () => ({
        config,
        release: async () => {
          await acquired.release()
          if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
        }
      })
    }
    // The app migrates the rest as it starts.
    app = await startApp(migrated, { postbackTargets: loopbackTargets })
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await app?.stop()
    await receiver?.stop()
  })

  /** A key of each mode for a migrated company. */
  const keysOf = async (companyId: number) => {
    const test = await app.createKey(companyId as Company.CompanyId, "test")
    const live = await app.createKey(companyId as Company.CompanyId, "live")
    return { test: test.secretKey, live: live.secretKey, madeSecrets: [test.webhookSecret, live.webhookSecret] }
  }

  const postbackOf = async (key: string, at: (createdAt: string) => Date = dueAt) => {
    path += 1
    const target = `/migrated-${path}`
    const created = await app.request("POST", "/api/v2/invoices", {
      key,
      body: pixRequest({ postback_url: receiver.url(target) })
    })
    expect(created.status).toBe(201)
    await app.deliverPostbacksAt(at(created.body.createdAt))
    expect(receiver.at(target)).toHaveLength(1)
    return receiver.at(target)[0]
  }

  it("signs both modes with the secret that signed them before, and a roll of one mode leaves the other", async () => {
    const keys = await keysOf(companies.alone)
    await expectSignedBy(await postbackOf(keys.test), [secrets.alone])
    await expectSignedBy(await postbackOf(keys.live), [secrets.alone])

    const rolled = await roll(app, keys.test)
    await expectSignedBy(await postbackOf(keys.test), [rolled, secrets.alone])
    await expectSignedBy(await postbackOf(keys.live), [secrets.alone])
    // Both modes had their secret from the migration: the first keys made none.
    expect(keys.madeSecrets).toEqual([null, null])
  })

  it("keeps a rolled secret that still overlapped signing in both modes until its end, and drops a lapsed one", async () => {
    const rolled = await keysOf(companies.rolled)
    for (const key of [rolled.test, rolled.live]) {
      await expectSignedBy(await postbackOf(key), [secrets.current, secrets.overlapping])
      await expectSignedBy(await postbackOf(key, () => new Date(previousEndsAt - 1_000)), [
        secrets.current,
        secrets.overlapping
      ])
      await expectSignedBy(await postbackOf(key, () => new Date(previousEndsAt + 1)), [secrets.current])
    }
    const rolledLongAgo = await keysOf(companies.rolledLongAgo)
    for (const key of [rolledLongAgo.test, rolledLongAgo.live]) {
      await expectSignedBy(await postbackOf(key), [secrets.current])
    }
    expect([...rolled.madeSecrets, ...rolledLongAgo.madeSecrets]).toEqual([null, null, null, null])
  })
})
