// SPEC 15.1 through the local bank (apps/bank) over SFTP, on each database: a boleto is pending until the bank's
// retorno registers or rejects it (which expires the invoice), paid at the bank for its amount or another (said in its
// timeline and event), written off; a retorno read twice changes nothing; a remessa whose upload a dying process left
// unrecorded reaches the bank once; a remessa the bank refuses whole is sent again in the next one.
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { BankTransport, Cobranca } from "@fatura/cnab240"
import { Effect, Layer, Result } from "effect"
import { extractText, getDocumentProxy } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bankActs, exchange, startLocalBank, type TestBank } from "./support/Bank.js"
import { boletoRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

describe.each(testDatabases)("boletos registered at the bank on $name", (database) => {
  let bank: TestBank
  let app: TestApp
  let key: string

  beforeAll(async () => {
    bank = await startLocalBank()
    app = await startApp(database, { bank: bank.settings })
    key = (await app.registerCompany()).secretKey
  })
  afterAll(async () => {
    await app?.stop()
    await bank?.stop()
  })

  const create = async (amount = 123_456) => {
    const created = await app.request("POST", "/api/v2/invoices", {
      key,
      body: boletoRequest({ total_price_cents: amount })
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    return created.body
  }
  /** What the payer reads on the slip's PDF (pdf.js's text, whitespace collapsed). */
  const slipText = async (invoice: any) => {
    const path = `/api/v2/public/invoices/${invoice.secureId}/boleto.pdf?token=${invoice.invoice.token_checkout}`
    const response = await fetch(`${app.baseUrl}${path}`)
    expect(response.status).toBe(200)
    const pdf = await getDocumentProxy(new Uint8Array(await response.arrayBuffer()))
    return (await extractText(pdf, { mergePages: true })).text.replace(/\s+/g, " ")
  }
  const read = async (secureId: string) => (await app.request("GET", `/api/v2/invoices?id=${secureId}`, { key })).body
  const eventsOf = async (secureId: string) =>
    ((await app.request("GET", `/api/v2/events?invoice_id=${secureId}&limit=100`, { key })).body.data as Array<any>)
      .map((event) => [event.type, event.reason ?? null])
      .reverse()
  /** Fatura sends what waits, the bank answers, Fatura reads the answer. */
  const roundTrip = async () => {
    const sent = await exchange(app)
    bankActs(bank)
    const answered = await exchange(app)
    return { sent: sent.uploaded, read: answered.read }
  }

  it("issues a boleto of the bank's, pending, and registers it by a remessa the bank answers", async () => {
    const invoice = await create()
    expect(invoice.boleto).toMatchObject({ bank_code: "999", registration: "pending" })
    expect(await slipText(invoice)).toContain("BOLETO AINDA NÃO REGISTRADO NO BANCO")
    const { sent, read: answered } = await roundTrip()
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatch(/^CB\d{6}\.REM$/)
    expect(answered).toEqual(["CB000001.RET"])
    expect((await read(invoice.secureId)).boleto.registration).toBe("registered")
    expect(await slipText(invoice)).not.toContain("REGISTRADO NO BANCO")
    expect(await eventsOf(invoice.secureId)).toEqual([
      ["invoice.created", null],
      ["invoice.boleto_registered", null]
    ])
    // Nothing waits: an exchange sends nothing, and reads nothing twice.
    expect(await exchange(app)).toEqual({ uploaded: [], read: [] })
  })

  it("expires the invoice of a boleto the bank rejects, with its reasons", async () => {
    expect((await bank.simulate("POST", "/registrations/reject", { amount: 7_777, reason: "48" })).status).toBe(201)
    const invoice = await create(7_777)
    await roundTrip()
    const now = await read(invoice.secureId)
    expect([now.status, now.boleto.registration]).toEqual(["expired", "rejected"])
    expect(await slipText(invoice)).toContain("BOLETO RECUSADO PELO BANCO")
    expect(await eventsOf(invoice.secureId)).toEqual([
      ["invoice.created", null],
      ["invoice.boleto_rejected", "the bank rejected the boleto: 48 CEP Inválido"],
      ["invoice.expired", null]
    ])
  })

  it("pays the invoice of a boleto paid at the bank, for its amount or another, once", async () => {
    const exact = await create(10_000)
    const short = await create(20_000)
    await roundTrip()
    for (const [invoice, amount] of [
      [exact, undefined],
      [short, 19_500]
    ] as const) {
      const paid = await bank.simulate("POST", "/boletos/pay", {
        digitable_line: invoice.boleto.digitable_line,
        ...(amount === undefined ? {} : { amount })
      })
      expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    }
    bankActs(bank)
    await exchange(app)
    const paidExact = await read(exact.secureId)
    const paidShort = await read(short.secureId)
    expect(paidExact.status).toBe("paid")
    expect(paidExact.timeline.at(-1)).not.toHaveProperty("detail")
    expect(paidShort.status).toBe("paid")
    expect(paidShort.timeline.at(-1).detail).toBe("paid at the bank: R$ 195,00 for a boleto of R$ 200,00")
    expect((await eventsOf(short.secureId)).at(-1)).toEqual([
      "invoice.paid",
      "paid at the bank: R$ 195,00 for a boleto of R$ 200,00"
    ])
    expect(paidShort.financial_movements.map((entry: any) => [entry.type, entry.amount])).toEqual([
      ["payment", 19_500],
      ["fee", 349]
    ])
    // Available on the day the bank said it credits the payment, as its retorno reads.
    const retorno = readdirSync(join(bank.bank.filesDir, "retorno"))
      .filter((name) => name.startsWith("CB"))
      .sort()
      .at(-1)!
    const credited = Result.getOrThrow(
      Cobranca.retorno(readFileSync(join(bank.bank.filesDir, "retorno", retorno), "latin1"))
    ).occurrences.find((occurrence) => occurrence.movement === "06")?.creditedOn
    expect(credited).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    const receivables = await app.request("GET", `/api/v2/receivables?invoice_id=${short.secureId}`, { key })
    expect(receivables.body.data.map((receivable: any) => receivable.payment_date)).toEqual([credited])

    // The same retorno again, under another name: read, and nothing changes.
    const retornos = join(bank.bank.filesDir, "retorno")
    const last = readdirSync(retornos)
      .filter((name) => name.startsWith("CB"))
      .sort()
      .at(-1)!
    copyFileSync(join(retornos, last), join(retornos, "CB900000.RET"))
    const eventsBefore = await eventsOf(short.secureId)
    expect((await exchange(app)).read).toEqual(["CB900000.RET"])
    expect(await eventsOf(short.secureId)).toEqual(eventsBefore)
    expect((await read(short.secureId)).financial_movements).toEqual(paidShort.financial_movements)
  })

  it("expires the invoice of a boleto the bank writes off", async () => {
    const invoice = await create()
    await roundTrip()
    const writtenOff = await bank.simulate("POST", "/boletos/write-off", { our_number: invoice.boleto.our_number })
    expect(writtenOff.status).toBe(200)
    bankActs(bank)
    await exchange(app)
    expect((await read(invoice.secureId)).status).toBe("expired")
  })
})

describe.each(testDatabases)("remessas sent once on $name", (database) => {
  let bank: TestBank
  let app: TestApp
  let key: string
  let dies = true

  beforeAll(async () => {
    bank = await startLocalBank()
    // The bank's own transport, which, once, dies right after an upload: as a process killed before recording it.
    const real = BankTransport.sftp(bank.settings.sftp)
    const dying = Layer.succeed(
      BankTransport.BankTransport,
      BankTransport.BankTransport.of({
        session: (use) =>
          real.session((session) =>
            use({
              ...session,
              upload: (name, content) =>
                Effect.flatMap(session.upload(name, content), (outcome) => {
                  if (!dies) return Effect.succeed(outcome)
                  dies = false
                  return Effect.die(new Error("killed right after the upload"))
                })
            })
          )
      })
    )
    app = await startApp(database, { bank: bank.settings, bankTransport: dying })
    key = (await app.registerCompany()).secretKey
  })
  afterAll(async () => {
    await app?.stop()
    await bank?.stop()
  })

  it("uploads a remessa a dying process left unrecorded once: the next exchange finds it at the bank", async () => {
    const created = await app.request("POST", "/api/v2/invoices", { key, body: boletoRequest() })
    await expect(exchange(app)).rejects.toThrow(/killed right after the upload/)
    // The bank has it; the next exchange records it sent without sending it again, and the bank acts on it once.
    expect(await exchange(app)).toEqual({ uploaded: ["CB000001.REM"], read: [] })
    expect(bankActs(bank)).toEqual(["CB000001.REM"])
    await exchange(app)
    const boletos = (await bank.simulate("GET", "/boletos")).body as Array<{ ourNumber: string; registrations: number }>
    expect(boletos.map((boleto) => [boleto.ourNumber, boleto.registrations])).toEqual([
      [created.body.boleto.our_number, 1]
    ])
    const invoice = await app.request("GET", `/api/v2/invoices?id=${created.body.secureId}`, { key })
    expect(invoice.body.boleto.registration).toBe("registered")
  })

  it("sends again in a new remessa what a remessa the bank refused whole carried", async () => {
    const created = await app.request("POST", "/api/v2/invoices", { key, body: boletoRequest() })
    // The bank's report of a remessa it refused, for the one about to be sent (CB000002.REM).
    const sent = await exchange(app)
    expect(sent.uploaded).toEqual(["CB000002.REM"])
    // As the bank does with a file it refuses: it acts on none of it, and says why.
    rmSync(join(bank.bank.filesDir, "remessa", "CB000002.REM"))
    const report =
      "0;HI;Arquivo não Aceito;CB000002.REM\r\n1;AF;Código de Convênio Inválido;not the client's agreement\r\n"
    writeFileSync(join(bank.bank.filesDir, "retorno", "CB000002.REJ"), report)
    // Read before the bank acts: the registration waits for the next remessa, which the bank then answers.
    expect((await exchange(app)).read).toEqual(["CB000002.REJ"])
    const resent = await exchange(app)
    expect(resent.uploaded).toEqual(["CB000003.REM"])
    bankActs(bank)
    await exchange(app)
    const invoice = await app.request("GET", `/api/v2/invoices?id=${created.body.secureId}`, { key })
    expect(invoice.body.boleto.registration).toBe("registered")
  })
})
