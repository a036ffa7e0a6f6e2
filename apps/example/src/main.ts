#!/usr/bin/env node
import { createServer } from "node:http"
// A reference merchant (SPEC 8.5): it creates a pix invoice through @fatura/api's typed client,
// asks the sandbox to pay it, and receives the postbacks on a port of its own, verifying each signature before
// it trusts a byte. It prints what happened and stops once the invoice is paid.
import { FaturaClient, Postback } from "@fatura/api"
import { Config, Console, Deferred, Effect, Redacted } from "effect"

const program = Effect.gen(function* () {
  const baseUrl = yield* Config.String("FATURA_URL").pipe(Config.withDefault("http://localhost:3000"))
  const secretKey = yield* Config.Redacted("FATURA_KEY")
  const webhookSecret = yield* Config.Redacted("FATURA_WEBHOOK_SECRET")
  const port = yield* Config.Port("EXAMPLE_PORT").pipe(Config.withDefault(4000))

  const client = yield* FaturaClient.make({ baseUrl, secretKey })

  const paid = yield* Deferred.make<void>()
  // The receiver: the raw body is what is verified, never a re-serialized copy.
  const server = createServer((request, response) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => {
      body += chunk
    })
    request.on("end", () => {
      Postback.verifyPostback({
        body,
        signature: request.headers[Postback.signatureHeader] as string | undefined,
        secret: Redacted.value(webhookSecret)
      }).then(
        (event) => {
          const of = event.type.startsWith("invoice.") ? "invoice" : "withdrawal"
          const id = "secureId" in event.data ? event.data.secureId : event.data.id
          console.log(`verified ${event.type} ${event.id} for ${of} ${id}: ${event.data.status}`)
          response.writeHead(200).end()
          if (event.type === "invoice.paid") Deferred.doneUnsafe(paid, Effect.void)
        },
        (error: Postback.PostbackVerificationError) => {
          console.log(`refused a postback: ${error.reason}`)
          response.writeHead(400).end()
        }
      )
    })
  })
  yield* Effect.acquireRelease(
    Effect.callback<void>((resume) => {
      server.listen(port, "127.0.0.1", () => resume(Effect.void))
    }),
    () =>
      Effect.callback<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
  )
  yield* Console.log(`receiving postbacks on http://127.0.0.1:${port}/postbacks`)

  const invoice = yield* client.invoices.create({
    payload: {
      method: "pix",
      total_price_cents: 4_990,
      payer: { name: "Maria Souza", cpf_cnpj: "529.982.247-25", email: "maria@example.com" },
      items: [{ name: "Assinatura mensal", quantity: 1, unit_price: 4_990 }],
      postback_url: `http://127.0.0.1:${port}/postbacks`
    }
  })
  yield* Console.log(`created invoice ${invoice.secureId} (${invoice.status}), pix: ${invoice.pix.qrCode}`)
  yield* client.sandbox.pay({ payload: { id: invoice.secureId } })
  yield* Console.log("asked the sandbox to pay it; waiting for the postbacks")
  yield* Deferred.await(paid)
  yield* Console.log("paid: done")
})

program.pipe(Effect.scoped, Effect.runPromise).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
