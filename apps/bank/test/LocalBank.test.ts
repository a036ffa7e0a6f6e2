// The local bank as Fatura meets it: over SFTP with the keys it made, the host key it printed pinned; remessas
// answered by retornos Fatura's readers read; a malformed one refused with a report; and the simulator's payments,
// rejections, failures and returns answered the same way. What it acknowledged survives a restart.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Cobranca, Pagamentos } from "@fatura/cnab240"
import { Boleto, Cents } from "@fatura/domain"
import { Result } from "effect"
import ssh2 from "ssh2"
import { download, list, signIn, simulate, startBank, type TestBank, upload } from "./support/Bank.js"
import { agreementOf, boleto, paying, payment, registering, written } from "./support/Remessas.js"

let test: TestBank
beforeAll(async () => {
  test = await startBank()
})
afterAll(() => test.stop())

/** The digitable line of a boleto of the bank's, carrying `ourNumber` as Fatura's free field does. */
const lineOf = (ourNumber: string, amount: number) =>
  Boleto.digitableLine(
    Boleto.barcode({
      bankCode: test.env.FATURA_BANK_CODE!,
      amount: Cents.make(amount),
      dueDate: "2026-12-03",
      freeField: Boleto.freeField({ ourNumber, beneficiaryCode: "1" })
    })
  )

const cobrancaRetorno = async (sftp: ssh2.SFTPWrapper, name: string) =>
  Result.getOrThrow(Cobranca.retorno(await download(sftp, `/retorno/${name}`)))

describe("the local bank", () => {
  it("prints where it keeps its files and the settings Fatura needs, its host key's fingerprint among them", () => {
    expect(test.bank.filesDir).toBe(`${test.dir}/files`)
    expect(test.env.FATURA_BANK).toBe("cnab240")
    expect(test.env.FATURA_BANK_SFTP_HOST_KEY).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/)
  })

  it("lets in its client's key alone, and only to its two folders", async () => {
    const session = await signIn(test.env)
    expect(await list(session.sftp, "/")).toEqual(["remessa", "retorno"])
    await expect(list(session.sftp, "/../keys")).rejects.toThrow()
    session.end()
    const stranger = ssh2.utils.generateKeyPairSync("ed25519").private
    await expect(signIn(test.env, stranger)).rejects.toThrow(/authentication/i)
    // A server whose host key is not the one printed is not trusted.
    await expect(signIn({ ...test.env, FATURA_BANK_SFTP_HOST_KEY: "SHA256:x" })).rejects.toThrow()
  })

  it("registers boletos, rejects what the layout or the simulator refuses, and answers in a retorno", async () => {
    const rejected = await simulate(test.bank, "POST", "/registrations/reject", { amount: 777, reason: "99" })
    expect(rejected.status).toBe(201)
    const session = await signIn(test.env)
    await upload(
      session.sftp,
      "CB000001.REM",
      registering(test.env, 1, [
        boleto("1001"),
        boleto("1002", 500, { payer: { ...boleto("x").payer, zip: "00000000" } }),
        boleto("1003", 777)
      ])
    )
    expect(test.bank.cycle()).toEqual(["CB000001.REM"])
    expect(await list(session.sftp, "/retorno")).toEqual(["CB000001.RET"])
    const retorno = await cobrancaRetorno(session.sftp, "CB000001.RET")
    expect(retorno.occurrences.map((one) => [one.ourNumber, one.movement, one.reasons])).toEqual([
      ["1001", "02", []],
      ["1002", "03", ["48"]],
      ["1003", "03", ["99"]]
    ])
    // Acted on once: another cycle leaves it.
    expect(test.bank.cycle()).toEqual([])
    session.end()
  })

  it("takes a payment by digitable line, for any amount, and a write-off; refuses a second registration", async () => {
    const paid = await simulate(test.bank, "POST", "/boletos/pay", {
      digitable_line: lineOf("1001", 12_345),
      amount: 12_000
    })
    expect(paid).toEqual({ status: 200, body: { our_number: "1001", paid_amount: 12_000, status: "paid" } })
    expect((await simulate(test.bank, "POST", "/boletos/pay", { digitable_line: lineOf("1001", 12_345) })).status).toBe(
      409
    )
    expect((await simulate(test.bank, "POST", "/boletos/pay", { barcode: "1".repeat(44) })).status).toBe(400)
    const session = await signIn(test.env)
    await upload(session.sftp, "CB000002.REM", registering(test.env, 2, [boleto("1001"), boleto("2001")]))
    test.bank.cycle()
    await upload(
      session.sftp,
      "CB000003.REM",
      Cobranca.remessa({
        agreement: agreementOf(test.env),
        sequence: 3,
        written,
        instructions: [
          { _tag: "WriteOff", boleto: boleto("2001") },
          { _tag: "WriteOff", boleto: boleto("9999") }
        ]
      })
    )
    test.bank.cycle()
    const files = await list(session.sftp, "/retorno")
    expect(files).toEqual(["CB000001.RET", "CB000002.RET", "CB000003.RET"])
    const second = await cobrancaRetorno(session.sftp, "CB000002.RET")
    expect(second.occurrences.map((one) => [one.ourNumber, one.movement, one.reasons, one.paid])).toEqual([
      ["1001", "06", [], 12_000],
      ["1001", "03", ["63"], 0],
      ["2001", "02", [], 0]
    ])
    expect(second.occurrences[0]).toMatchObject({ amount: 12_345, companyReference: "INVOICE-1001" })
    expect(second.occurrences[0]!.creditedOn).not.toBeNull()
    const third = await cobrancaRetorno(session.sftp, "CB000003.RET")
    const writtenOff = await simulate(test.bank, "POST", "/boletos/write-off", { our_number: "2001" })
    expect(writtenOff.status).toBe(409)
    expect(third.occurrences.map((one) => [one.ourNumber, one.movement, one.reasons])).toEqual([
      ["2001", "09", []],
      ["9999", "03", ["60"]]
    ])
    session.end()
  })

  it("never lets a remessa be overwritten, nor one appear but by renaming a complete upload", async () => {
    const session = await signIn(test.env)
    await expect(upload(session.sftp, "CB000001.REM", "anything")).rejects.toThrow()
    await expect(
      new Promise<void>((resolve, reject) =>
        session.sftp.writeFile("/remessa/CB000009.REM", "x", (error) => (error ? reject(error) : resolve()))
      )
    ).rejects.toThrow()
    session.end()
  })

  it("takes a remessa at its rename even when a switch makes it slow to acknowledge it", async () => {
    // A bank of its own, so that the others' books stay as they are.
    const slow = await startBank()
    expect((await simulate(slow.bank, "POST", "/switches", { receipt_delay_ms: -1 })).status).toBe(400)
    expect((await simulate(slow.bank, "POST", "/switches", { receipt_delay_ms: 60_000 })).status).toBe(200)
    const session = await signIn(slow.env)
    let acknowledged = false
    const uploading = upload(session.sftp, "CB000077.REM", registering(slow.env, 77, [boleto("7701")])).then(() => {
      acknowledged = true
    })
    // The file is the bank's before the client hears so: a client that died now would still have delivered it.
    while (!(await list(session.sftp, "/remessa")).includes("CB000077.REM")) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(acknowledged).toBe(false)
    session.end()
    await uploading.catch(() => undefined)
    expect(acknowledged).toBe(false)
    expect(slow.bank.cycle()).toEqual(["CB000077.REM"])
    await slow.stop()
  })

  it("refuses a malformed remessa whole, with a report of G059's codes and the lines at fault", async () => {
    const session = await signIn(test.env)
    const good = registering(test.env, 4, [boleto("3001")]).split("\r\n")
    const broken = [good[0], good[1]!.slice(0, 230), ...good.slice(2)].join("\r\n")
    await upload(session.sftp, "CB000004.REM", broken)
    test.bank.cycle()
    const report = await download(session.sftp, "/retorno/CB000004.REJ")
    expect(report.split("\r\n").slice(0, 2)).toEqual([
      "0;HI;Arquivo não Aceito;CB000004.REM",
      "2;HJ;Tipo de Registro Inválido;a record of 230 characters, not 240"
    ])
    session.end()
  })

  it("schedules payments, pays them at its next cycle (a pix with its end-to-end id), fails and returns them", async () => {
    expect((await simulate(test.bank, "POST", "/transfers/fail", { amount: 30_000, occurrence: "PC" })).status).toBe(
      201
    )
    const session = await signIn(test.env)
    await upload(
      session.sftp,
      "PG000005.REM",
      paying(test.env, 5, [payment("WD1", "pix"), payment("WD2", "ted", 20_000), payment("WD3", "pix", 30_000)])
    )
    test.bank.cycle()
    test.bank.cycle()
    const names = (await list(session.sftp, "/retorno")).filter((name) => name.startsWith("PG"))
    expect(names).toHaveLength(2)
    const [accepted, settled] = await Promise.all(
      names.map(async (name) => Result.getOrThrow(Pagamentos.retorno(await download(session.sftp, `/retorno/${name}`))))
    )
    expect(accepted!.outcomes.map((one) => [one.reference, one.occurrences])).toEqual([
      ["WD2", ["BD"]],
      ["WD1", ["BD"]],
      ["WD3", ["BD"]]
    ])
    const byReference = Object.fromEntries(settled!.outcomes.map((one) => [one.reference, one]))
    expect(byReference.WD1).toMatchObject({ form: "pix", occurrences: ["00"], effectiveAmount: 10_000 })
    expect(byReference.WD1!.endToEndId).toMatch(/^E99999999\d{12}[A-Za-z0-9]{11}$/)
    expect(byReference.WD2).toMatchObject({ form: "ted", occurrences: ["00"], endToEndId: null })
    expect(byReference.WD3).toMatchObject({ occurrences: ["PC"], effectiveAmount: 0 })
    const transfers = (await simulate(test.bank, "GET", "/transfers")).body as Array<{ id: string; reference: string }>
    const wd1 = transfers.find((transfer) => transfer.reference === "WD1")!
    expect((await simulate(test.bank, "POST", `/transfers/${wd1.id}/return`)).status).toBe(200)
    expect((await simulate(test.bank, "POST", `/transfers/${wd1.id}/return`)).status).toBe(409)
    test.bank.cycle()
    const returned = (await list(session.sftp, "/retorno")).filter((name) => name.startsWith("PG")).at(-1)!
    const read = Result.getOrThrow(Pagamentos.retorno(await download(session.sftp, `/retorno/${returned}`)))
    expect(read.outcomes.map((one) => [one.reference, one.occurrences])).toEqual([["WD1", ["DV"]]])
    session.end()
  })

  it("keeps its keys and its book across a restart, and acts on no remessa twice", async () => {
    const fingerprint = test.env.FATURA_BANK_SFTP_HOST_KEY
    test = await test.restart()
    expect(test.env.FATURA_BANK_SFTP_HOST_KEY).toBe(fingerprint)
    expect(test.bank.cycle()).toEqual([])
    const boletos = (await simulate(test.bank, "GET", "/boletos")).body as Array<{ ourNumber: string; status: string }>
    expect(boletos.map((one) => [one.ourNumber, one.status])).toEqual([
      ["1001", "paid"],
      ["2001", "written_off"]
    ])
  })
})
