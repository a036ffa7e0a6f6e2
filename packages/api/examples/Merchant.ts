// A merchant on @fatura/api: it creates a pix invoice, looks it up, asks for one that does not exist, has the
// sandbox pay the invoice, and trusts the postback that says so only once its signature verifies.
// Configuration: FATURA_URL, FATURA_KEY (a test key), FATURA_WEBHOOK_SECRET, MERCHANT_PORT (where postbacks arrive).
import { createServer } from "node:http"
import { FaturaClient, Postback } from "@fatura/api"
import { Config, Console, Deferred, Effect, Redacted } from "effect"

const program = Effect.gen(function* () {
  const baseUrl = yield* Config.String("FATURA_URL").pipe(Config.withDefault("http://localhost:3000"))
  const secretKey = yield* Config.Redacted("FATURA_KEY")
  const webhookSecret = yield* Config.Redacted("FATURA_WEBHOOK_SECRET")
  const port = yield* Config.Port("MERCHANT_PORT").pipe(Config.withDefault(4000))

  const fatura = yield* FaturaClient.make({ baseUrl, secretKey })

  // The receiver verifies the raw body as it arrived; a re-serialized copy would not match the signature.
  const paid = yield* Deferred.make<Postback.InvoiceEvent>()
  const receiver = createServer((request, response) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => {
      body += chunk
    })
    request.on("end", () => {
      const signature = request.headers[Postback.signatureHeader]
      Postback.verifyPostback({
        body,
        signature: typeof signature === "string" ? signature : undefined,
        secret: Redacted.value(webhookSecret)
      }).then(
        (event) => {
          response.writeHead(200).end()
          const subject = "secureId" in event.data ? `invoice ${event.data.secureId}` : `withdrawal ${event.data.id}`
          console.log(`verified ${event.type} ${event.id}: ${subject} is ${event.data.status}`)
          if (event.type === "invoice.paid") Deferred.doneUnsafe(paid, Effect.succeed(event))
        },
        (error: Postback.PostbackVerificationError) => {
          response.writeHead(400).end()
          console.log(`refused a postback: ${error.reason}`)
        }
      )
    })
  })
  yield* Effect.acquireRelease(
    Effect.callback<void>((resume) => {
      receiver.listen(port, "127.0.0.1", () => resume(Effect.void))
    }),
    () =>
      Effect.callback<void>((resume) => {
        receiver.close(() => resume(Effect.void))
      })
  )

  const payer = { name: "Maria Souza", cpf_cnpj: "529.982.247-25", email: "maria@example.com" }
  const invoice = yield* fatura.invoices.create({
    payload: {
      method: "pix",
      total_price_cents: 4_990,
      payer,
      items: [{ name: "Assinatura mensal", quantity: 1, unit_price: 4_990 }],
      postback_url: `http://127.0.0.1:${port}/postbacks`
    }
  })
  yield* Console.log(`created invoice ${invoice.secureId}: ${invoice.status}, ${invoice.amount} cents`)

  const found = yield* fatura.invoices.search({ query: { id: invoice.secureId } })
  yield* Console.log(`found invoice ${found.secureId}: ${found.status}`)

  // Errors of the contract are typed: an unknown id is a NotFound to handle, not an exception to guess at.
  const unknown = yield* fatura.invoices.search({ query: { id: "00000000-0000-4000-8000-000000000000" } }).pipe(
    Effect.map((other) => `found invoice ${other.secureId}`),
    Effect.catchTag("NotFound", (error) => Effect.succeed(`no such invoice (${error.code})`))
  )
  yield* Console.log(`unknown invoice: ${unknown}`)

  // The client encodes every payload with the contract's schema before sending it: what the contract refuses fails
  // right here as a SchemaError, and the server (which would answer 400 invalid_request) never sees it.
  const invalid = yield* fatura.invoices
    .create({ payload: { method: "pix", total_price_cents: 4_990, payer: { ...payer, cpf_cnpj: "111.111.111-11" } } })
    .pipe(
      Effect.map((other) => `created ${other.secureId}`),
      Effect.catchTag("SchemaError", () => Effect.succeed("refused before sending (SchemaError)"))
    )
  yield* Console.log(`invalid invoice: ${invalid}`)

  // The sandbox pays the invoice as a payer would; Fatura then posts `invoice.paid` to the receiver.
  yield* fatura.sandbox.pay({ payload: { id: invoice.secureId } })
  const event = yield* Deferred.await(paid).pipe(Effect.timeout("30 seconds"))
  yield* Console.log(`paid: ${event.data.secureId} at ${event.data.paidAt}`)
})

program.pipe(Effect.scoped, Effect.runPromise).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
