// Fatura's pix provider over a PSP's API Pix, set up from the FATURA_PIX_* variables (the local PSP of apps/pix-psp
// prints them): an invoice's charge registered and its BR Code handed back, asked again as a retry would, and read
// back from the PSP.
import { PixProvider } from "@fatura/application"
import { AutoWithdrawal, Cents, type Company, Document, FeePlan, type PixKey, Timestamp } from "@fatura/domain"
import * as PixApi from "@fatura/pix-api"
import { Effect, Layer, Option, Result } from "effect"

// The invoice's company. The charge is made to the platform's own account (FATURA_PIX_KEY), so none of this is sent.
const company: Company.Company = {
  id: 1 as Company.CompanyId,
  cnpj: "11222333000181",
  companyType: "ltda",
  corporateReason: "Padaria Exemplo Ltda",
  fantasyName: "Padaria Exemplo",
  urlWebsite: "https://padaria.example.com",
  email: "caixa@padaria.example.com",
  address: {
    street: "Rua Augusta",
    number: "100",
    city: "São Paulo",
    postalCode: "01305000",
    province: "Consolação",
    state: "SP"
  },
  bank: { code: "001", account: "12345", agency: "0001", digit: "6", name: "Banco do Brasil S.A.", type: "corrente" },
  autoWithdrawal: AutoWithdrawal.off,
  blocks: { system: false, processing: false, pix: false, card: false, bank_slip: false, sake: false },
  feePlan: FeePlan.defaultFeePlan,
  isCustomFeePlan: false,
  pixKey: "caixa@padaria.example.com",
  isActive3ds: false,
  createdAt: Timestamp.fromEpochMicros(1_780_000_000_000_000n),
  updatedAt: Timestamp.fromEpochMicros(1_780_000_000_000_000n)
}

const program = Effect.gen(function* () {
  const pix = yield* PixProvider
  // The invoice's secureId gives the charge its txid: a retry of the same invoice asks for the same charge.
  const txid = pix.txidOf(crypto.randomUUID())
  const now = Timestamp.fromEpochMicros(BigInt(Date.now()) * 1000n)
  const request = {
    company,
    pixKey: company.pixKey as PixKey.PixKey,
    amount: Cents.make(12_345),
    txid,
    expiresAt: Timestamp.plusSeconds(now, 3600),
    expiresIn: 3600,
    payer: { name: "Maria Souza", document: Result.getOrThrow(Document.parse("529.982.247-25")) },
    summary: "Pão de queijo (3)"
  }

  const { qrCode } = yield* pix.charge(request)
  // Point of initiation 12: a dynamic code, whose location the payer's app reads the charge from.
  console.log(`a dynamic BR Code: ${qrCode.startsWith("000201010212")}`)
  console.log(`asked again, the same BR Code: ${(yield* pix.charge(request)).qrCode === qrCode}`)

  const charge = Option.getOrThrow(yield* pix.findCharge(txid))
  console.log(`at the PSP: ${charge.status}, ${charge.amount} cents, ${charge.pix.length} pix received`)
  console.log(`a charge never asked for: ${Option.isNone(yield* pix.findCharge(pix.txidOf(crypto.randomUUID())))}`)
})

const pixProvider = Layer.unwrap(Effect.map(PixApi.config, (settings) => PixApi.layer(settings)))

Effect.runPromise(program.pipe(Effect.provide(pixProvider)))
