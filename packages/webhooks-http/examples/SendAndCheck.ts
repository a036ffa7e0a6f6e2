// Postbacks over HTTP behind the application's ports: where one may go (PostbackTargets: the host's addresses, every
// one of them public), and one signed postback POSTed (PostbackSender) to a receiver on this machine, as it arrives
// there. The check refuses this machine's addresses, so the postback is sent unchecked, as a test setup sends it.
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Postback } from "@fatura/api"
import { PostbackSender, PostbackTargets } from "@fatura/application"
import { HttpPostbackSender, NetworkPostbackTargets } from "@fatura/webhooks-http"
import { Console, Effect, Layer } from "effect"

const received: Array<IncomingHttpHeaders> = []
const receiver = createServer((request, response) => {
  received.push(request.headers)
  request.resume()
  response.writeHead(204).end()
})
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
const { port } = receiver.address() as AddressInfo

const program = Effect.gen(function* () {
  const targets = yield* PostbackTargets
  for (const url of [
    "https://93.184.215.14/postbacks",
    "https://10.0.0.1/postbacks",
    "http://127.0.0.1:8080/postbacks",
    "ftp://merchant.example/postbacks"
  ]) {
    const outcome = yield* targets.check(url).pipe(
      Effect.match({
        onSuccess: (addresses) => `accepted, sent only to ${addresses.join(", ")}`,
        onFailure: (refused) => `refused: ${refused.reason}`
      })
    )
    yield* Console.log(`${url}  ${outcome}`)
  }

  // Every secret that signs, newest first: the current one and one rolled a moment ago, still overlapping.
  const postback = {
    eventId: "evt_1",
    eventType: "invoice.paid",
    body: '{"id":"evt_1","type":"invoice.paid"}',
    secrets: ["whsec_current", "whsec_rolled"],
    timestamp: 1_700_000_000
  }
  const sent = yield* (yield* PostbackSender).send({
    ...postback,
    url: `http://127.0.0.1:${port}/postbacks`,
    addresses: null
  })
  const headers = received[0]!
  yield* Console.log(`answered ${sent.statusCode}`)
  yield* Console.log(`${Postback.eventIdHeader}: ${headers[Postback.eventIdHeader]}`)
  yield* Console.log(`${Postback.eventTypeHeader}: ${headers[Postback.eventTypeHeader]}`)
  const signature = headers[Postback.signatureHeader]
  yield* Console.log(
    `${Postback.signatureHeader}, as Postback.sign writes it: ${signature === (yield* Postback.sign(postback))}`
  )
})

await Effect.runPromise(
  program.pipe(Effect.provide(Layer.mergeAll(NetworkPostbackTargets.layer, HttpPostbackSender.layer)))
)
receiver.close()
