// SPEC 2 and 4.2: a company never sees another's invoices, and a key's mode never sees the other mode's:
// another company's id answers exactly like an unknown id, so a response never reveals that an id exists.
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pixRequest, type Reply, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

/** Everything a response shows, except what legitimately differs per request (its id and the clock's date). */
const observable = (reply: Reply) => ({
  status: reply.status,
  body: reply.body,
  headers: [...reply.headers.entries()].filter(([name]) => name !== "x-request-id" && name !== "date")
})

describe.each(testDatabases)("tenancy on $name", (database) => {
  let app: TestApp
  let keyA: string
  let keyB: string
  let liveKeyA: string
  let companyA: number
  let invoiceA: { id: number; secureId: string }
  let snapshotA: unknown

  beforeAll(async () => {
    app = await startApp(database)
    const a = await app.registerCompany({ name: "Padaria A Ltda" })
    const b = await app.registerCompany({ name: "Mercado B Ltda" })
    keyA = a.secretKey
    keyB = b.secretKey
    companyA = a.company.id
    liveKeyA = (await app.createKey(a.company.id, "live")).secretKey
    const created = await app.request("POST", "/api/v2/invoices", { key: keyA, body: pixRequest() })
    expect(created.status).toBe(201)
    invoiceA = { id: created.body.id, secureId: created.body.secureId }
    const read = await app.request("GET", `/api/v2/invoices?id=${invoiceA.secureId}`, { key: keyA })
    expect(read.status).toBe(200)
    snapshotA = read.body
  })
  afterAll(() => app.stop())

  const search = (key: string, id: string) =>
    app.request("GET", `/api/v2/invoices?id=${encodeURIComponent(id)}`, { key })

  const expectNotFound = (reply: Reply) => {
    expect(reply.status).toBe(404)
    expect(reply.body.code).toBe("not_found")
    expect(typeof reply.body.message).toBe("string")
  }

  /** A numeric id that no invoice has (ids are unique across the service and assigned in order). */
  const unknownNumericId = () => String(invoiceA.id + 1_000_000)

  it("lets company A read its invoice by secureId, uppercase secureId and numeric id, identically", async () => {
    const bySecureId = await search(keyA, invoiceA.secureId)
    const byUpperSecureId = await search(keyA, invoiceA.secureId.toUpperCase())
    const byId = await search(keyA, String(invoiceA.id))
    for (const reply of [bySecureId, byUpperSecureId, byId]) {
      expect(reply.status).toBe(200)
      expect(reply.body.companyId).toBe(companyA)
    }
    expect(bySecureId.body.secureId).toBe(invoiceA.secureId)
    expect(byUpperSecureId.body).toEqual(bySecureId.body)
    expect(byId.body).toEqual(bySecureId.body)
  })

  it("answers company B 404 not_found for A's secureId, exactly like an unknown secureId", async () => {
    const foreign = await search(keyB, invoiceA.secureId)
    const unknown = await search(keyB, randomUUID())
    expectNotFound(foreign)
    expect(observable(foreign)).toEqual(observable(unknown))
    // A's own key gets the same answer for the unknown secureId: the caller does not change it either.
    expect(observable(await search(keyA, randomUUID()))).toEqual(observable(foreign))
  })

  it("answers company B 404 not_found for A's uppercase secureId, exactly like an unknown one", async () => {
    const foreign = await search(keyB, invoiceA.secureId.toUpperCase())
    const unknown = await search(keyB, randomUUID().toUpperCase())
    expectNotFound(foreign)
    expect(observable(foreign)).toEqual(observable(unknown))
  })

  it("answers company B 404 not_found for A's numeric id, exactly like an unknown numeric id", async () => {
    const foreign = await search(keyB, String(invoiceA.id))
    const unknown = await search(keyB, unknownNumericId())
    expectNotFound(foreign)
    expect(observable(foreign)).toEqual(observable(unknown))
    expect(observable(await search(keyA, unknownNumericId()))).toEqual(observable(foreign))
  })

  it("answers company B's own invoices normally, while A's stay hidden", async () => {
    const created = await app.request("POST", "/api/v2/invoices", { key: keyB, body: pixRequest() })
    expect(created.status).toBe(201)
    expect((await search(keyB, created.body.secureId)).status).toBe(200)
    expectNotFound(await search(keyA, created.body.secureId))
    expectNotFound(await search(keyA, String(created.body.id)))
  })

  it.each([
    { label: "abc", id: "abc" },
    { label: "-1", id: "-1" },
    { label: "0", id: "0" },
    { label: "1.5", id: "1.5" },
    { label: "a 65-character string", id: "a".repeat(65) },
    { label: "a 65-character string of digits", id: "1".repeat(65) },
    { label: "a uuid that is not v4", id: "00000000-0000-0000-0000-000000000000" },
    { label: "A's secureId with a suffix", id: "SECURE_ID-x" },
    { label: "A's numeric id with a suffix", id: "ID abc" },
    { label: "SQL", id: "1' OR '1'='1" }
  ])("answers ?id=$label with 404 or 400, never 200 or 500", async ({ id }) => {
    const value = id.replace("SECURE_ID", invoiceA.secureId).replace("ID", String(invoiceA.id))
    for (const key of [keyA, keyB]) {
      const reply = await search(key, value)
      expect([400, 404]).toContain(reply.status)
      expect(reply.body.code).toBe(reply.status === 404 ? "not_found" : "invalid_request")
      expect(typeof reply.body.message).toBe("string")
    }
  })

  it("answers 400 with an issue at path id when id is missing", async () => {
    for (const path of ["/api/v2/invoices", "/api/v2/invoices?", "/api/v2/invoices?other=1"]) {
      const reply = await app.request("GET", path, { key: keyB })
      expect(reply.status).toBe(400)
      expect(reply.body.code).toBe("invalid_request")
      expect(typeof reply.body.message).toBe("string")
      expect(reply.body.issues.map((issue: { path: string }) => issue.path)).toContain("id")
    }
  })

  it("hides A's test-mode invoice from A's own live key", async () => {
    const bySecureId = await search(liveKeyA, invoiceA.secureId)
    const byId = await search(liveKeyA, String(invoiceA.id))
    expectNotFound(bySecureId)
    expectNotFound(byId)
    expect(observable(bySecureId)).toEqual(observable(await search(liveKeyA, randomUUID())))
    expect(observable(byId)).toEqual(observable(await search(liveKeyA, unknownNumericId())))
  })

  it("hides an invoice created with the live key from the test key (and from company B)", async () => {
    // The same payer's document under another name: clients are kept per mode, so the test-mode client record
    // in A's invoice must stay untouched (checked by the snapshot test below).
    const payer = { name: "Maria Souza Lima", cpf_cnpj: "529.982.247-25", email: "maria@live.example" }
    const created = await app.request("POST", "/api/v2/invoices", { key: liveKeyA, body: pixRequest({ payer }) })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.companyId).toBe(companyA)
    const live = { id: String(created.body.id), secureId: created.body.secureId as string }

    const own = await search(liveKeyA, live.secureId)
    expect(own.status).toBe(200)
    expect((await search(liveKeyA, live.id)).body).toEqual(own.body)

    for (const key of [keyA, keyB]) {
      const bySecureId = await search(key, live.secureId)
      const byId = await search(key, live.id)
      expectNotFound(bySecureId)
      expectNotFound(byId)
      expect(observable(bySecureId)).toEqual(observable(await search(key, randomUUID())))
      expect(observable(byId)).toEqual(observable(await search(key, unknownNumericId())))
    }
  })

  it("leaves A's invoice unchanged after B's attempts", async () => {
    // B tries every form of the id once more.
    for (const id of [invoiceA.secureId, invoiceA.secureId.toUpperCase(), String(invoiceA.id)]) {
      expectNotFound(await search(keyB, id))
    }
    const after = await search(keyA, invoiceA.secureId)
    expect(after.status).toBe(200)
    expect(after.body).toEqual(snapshotA)
    expect(after.body.updatedAt).toBe((snapshotA as { updatedAt: string }).updatedAt)
    expect(after.body.status).toBe("pending")
    const [row] = await app.query(`SELECT count(*)::int AS n FROM events WHERE invoice_id = ${invoiceA.id}`)
    expect(row?.n).toBe(1)
  })
})
