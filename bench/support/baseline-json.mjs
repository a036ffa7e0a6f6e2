// The baseline's (bench/baseline.mjs) response: built crudely from the rows, about the size and shape of the
// service's.

const enterpriseOf = (company, totals) => ({
  id: Number(company.id),
  cnpj: company.cnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, "$1.$2.$3/$4-$5"),
  company_type: company.company_type,
  corporate_reason: company.corporate_reason,
  fantasy_name: company.fantasy_name,
  url_website: company.url_website ?? "",
  address: company.address_street ?? "",
  address_city: company.address_city ?? "",
  address_number: company.address_number ?? "",
  address_postal_code: company.address_postal_code ?? "",
  address_province: company.address_province ?? "",
  address_state: company.address_state ?? "",
  bank_account: company.bank_account ?? "",
  bank_agency: company.bank_agency ?? "",
  bank_code: company.bank_code ?? "",
  bank_digit: company.bank_digit ?? "",
  bank_name: company.bank_name ?? "",
  bank_type: company.bank_type ?? "corrente",
  amount_invoice_total: Number(totals?.amount_invoice_total ?? 0),
  amount_invoices_competicion: Number(totals?.amount_invoices_competicion ?? 0),
  balance_bank_slip: Number(totals?.balance_bank_slip ?? 0),
  balance_card: Number(totals?.balance_card ?? 0),
  balance_pix: Number(totals?.balance_pix ?? 0),
  blocked_bank_slip: company.blocked_bank_slip,
  blocked_card: company.blocked_card,
  blocked_pix: company.blocked_pix,
  blocked_processing: company.blocked_processing,
  blocked_sake: company.blocked_sake,
  blocked_system: company.blocked_system,
  is_custom: company.is_custom,
  create_at: company.created_at,
  update_at: company.updated_at,
  is_active_3ds: company.is_active_3ds
})

/** `i` holds the invoice's columns (named as in the invoices table), `client` the client's. */
export const invoiceJson = (company, totals, i, client) => {
  const fee = i.fee ?? {}
  const isPix = i.method === "pix"
  return {
    id: Number(i.id),
    secureId: i.secure_id,
    companyId: Number(company.id),
    amount: Number(i.amount),
    installments: i.installments,
    paymentMethod: i.method,
    status: i.status,
    createdAt: i.created_at,
    updatedAt: i.updated_at,
    paidAt: i.paid_at,
    refundedAmount: Number(i.refunded_amount),
    refusedReason: i.refused_reason,
    postbackUrl: i.postback_url ?? "",
    traceable: i.traceable,
    boleto: null,
    card: null,
    card_associate: null,
    delivery: null,
    shipping: null,
    ip: i.ip,
    metadata: i.metadata,
    externalRef: i.external_ref,
    financial_movements: i.movements ?? [],
    refunds: i.refunds ?? [],
    splits: [],
    timeline: i.timeline ?? [],
    items: (i.items ?? []).map((item) => ({
      title: item.title,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      tangible: item.tangible,
      externalRef: null
    })),
    pix: isPix ? { qrCode: i.pix_qr_code, txid: i.pix_txid, expiresAt: i.pix_expires_at } : null,
    fee: {
      estimatedFee: fee.estimatedFee,
      fixedAmount: fee.fixedAmount,
      netAmount: fee.netAmount,
      spreadPercentage: fee.spreadPercentage
    },
    client: {
      id: Number(client.id),
      name: client.name,
      email: client.email,
      phone: client.phone ?? "",
      cpf_cnpj: client.document_number,
      created_at: client.created_at,
      updated_at: client.updated_at
    },
    customer: {
      id: Number(client.id),
      name: client.name,
      email: client.email,
      phone: client.phone ?? "",
      birthdate: null,
      createdAt: client.created_at,
      externalRef: null,
      document: { number: client.document_number, type: client.document_type },
      address: {
        street: "",
        streetNumber: "",
        neighborhood: "",
        city: "",
        state: "",
        zipCode: "",
        complement: null,
        country: "BR"
      }
    },
    enterprise: enterpriseOf(company, totals),
    invoice: {
      id: Number(i.id),
      invoice_id: i.secure_id,
      invoice_id_external: null,
      invoice_id_external2: null,
      invoice_id_external3: null,
      payment_method: i.method,
      status: i.status,
      is_pix: isPix,
      is_bank_slip: i.method === "bank_slip",
      is_credit_card: i.method === "credit_card",
      is_anticipated: false,
      anticipation_approved: false,
      is_indication_tax: false,
      postback_url: i.postback_url ?? "",
      qr_code_pix: i.pix_qr_code,
      token_checkout: i.token_checkout,
      retention_tax: 0,
      value_adq: fee.valueAdq,
      value_platform: fee.valuePlatform,
      value_indication: fee.valueIndication,
      value_seller: fee.valueSeller,
      value_total: fee.valueTotal,
      created_at: i.created_at,
      updated_at: i.updated_at
    }
  }
}

export const searchedClient = (row) => ({
  id: row.client_id,
  name: row.client_name,
  email: row.client_email,
  phone: row.client_phone,
  document_type: row.client_document_type,
  document_number: row.client_document_number,
  created_at: row.client_created_at,
  updated_at: row.client_updated_at
})
