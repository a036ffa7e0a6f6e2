// The payer's side (SPEC 4.7): reached with the invoice's checkout token instead of a secret key.
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NotFound, Unavailable } from "./ApiError.js"

export class PublicApi extends HttpApiGroup.make("public")
  .add(
    HttpApiEndpoint.get("boletoPdf", "/public/invoices/:secureId/boleto.pdf", {
      params: { secureId: Schema.String },
      query: { token: Schema.String },
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" })),
      error: [NotFound, Unavailable]
    }).annotateMerge(
      OpenApi.annotations({
        summary: "Boleto PDF",
        description: "The bank slip of a bank_slip invoice; a wrong or missing token answers 404."
      })
    )
  )
  .prefix("/api/v2")
  .annotateMerge(OpenApi.annotations({ title: "Invoices public" })) {}
