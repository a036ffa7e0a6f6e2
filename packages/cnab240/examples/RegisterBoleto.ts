// A remessa registering one boleto of R$ 123,45 at Itaú under the platform's cobrança agreement, and what reading it
// as a retorno says: every file says which way it goes.
import { Cobranca } from "@fatura/cnab240"

const remessa = Cobranca.remessa({
  agreement: {
    bankCode: "341",
    bankName: "Itaú Unibanco S.A.",
    companyDocument: "11222333000181",
    companyName: "Fatura Pagamentos Ltda",
    agreement: "1234567",
    agency: "0057",
    agencyDigit: "",
    account: "72192",
    accountDigit: "1",
    wallet: "1"
  },
  sequence: 1,
  written: { date: "2026-11-29", time: "10:15:30" },
  instructions: [
    {
      _tag: "Register",
      boleto: {
        ourNumber: "1001",
        documentNumber: "501",
        companyReference: "invoice-501",
        issuedOn: "2026-11-29",
        dueDate: "2026-12-02",
        amount: 12_345,
        payer: {
          document: "52998224725",
          name: "Maria da Conceição Souza",
          address: "Rua das Laranjeiras, 120",
          district: "Laranjeiras",
          zip: "22240003",
          city: "Rio de Janeiro",
          state: "RJ"
        }
      }
    }
  ]
})

const lines = remessa.split("\r\n").slice(0, -1)
console.log(`${lines.length} records of ${lines[0]?.length} characters`)
console.log(lines[2]?.slice(0, 100))
const misread = Cobranca.retorno(remessa)
if (misread._tag === "Failure") console.log(`as a retorno: ${misread.failure.message}`)
