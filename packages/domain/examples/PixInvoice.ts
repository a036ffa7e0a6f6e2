// One pix invoice of R$ 123,45, worked out with the domain alone: the payer's CPF checked, the fee taken by the
// default plan, and the BR Code ("pix copia e cola") that any bank app pays.
import { Cents, Document, FeePlan, PixBrCode, PixKey } from "@fatura/domain"
import { Result } from "effect"

const typo = Document.parse("529.982.247-24")
if (Result.isFailure(typo)) console.log(`529.982.247-24 is refused: ${typo.failure.reason}`)

const payer = Result.getOrThrow(Document.parse("529.982.247-25"))
console.log(`payer: ${payer.type} ${Document.format(payer)}`)

const amount = Cents.make(12_345)
const fee = FeePlan.split(FeePlan.defaultFeePlan, "pix", 1, amount)
console.log(
  `amount ${Cents.formatBRL(amount)}: fee ${Cents.formatBRL(fee.estimatedFee)}, ` +
    `the seller keeps ${Cents.formatBRL(fee.valueSeller)}`
)

const { key } = Result.getOrThrow(PixKey.parse("+55 (11) 98888-7777"))
const brCode = PixBrCode.build({
  pixKey: key,
  merchantName: "Padaria São João",
  merchantCity: "São Paulo",
  amount,
  txid: "INVOICE0001"
})
console.log(`pix: ${brCode}`)
