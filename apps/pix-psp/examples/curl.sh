# With the PSP running and the export lines it printed run in this shell: a token, a charge, the charge's payload at
# its location (what a payer's app reads), a payment by the simulator, and the charge read back.
set -eu
token=$(curl -sS --fail-with-body --cert "$FATURA_PIX_CERT" --key "$FATURA_PIX_CERT_KEY" --cacert "$FATURA_PIX_CA" \
  -u "$FATURA_PIX_CLIENT_ID:$FATURA_PIX_CLIENT_SECRET" -d grant_type=client_credentials "$FATURA_PIX_OAUTH_URL" |
  sed -E 's/.*"access_token":"([^"]+)".*/\1/')

txid="cobrancaexemplo$(date +%s)p$$"
charge=$(curl -sS --fail-with-body --cert "$FATURA_PIX_CERT" --key "$FATURA_PIX_CERT_KEY" --cacert "$FATURA_PIX_CA" \
  -H "Authorization: Bearer $token" -H "Content-Type: application/json" -X PUT "$FATURA_PIX_API_URL/cob/$txid" \
  -d "{\"calendario\":{\"expiracao\":3600},\"valor\":{\"original\":\"10.00\"},\"chave\":\"$FATURA_PIX_KEY\"}")
echo "$charge"

# The location is open to anyone: no client certificate, only the CA that verifies the PSP.
location=$(echo "$charge" | sed -E 's/.*"location":"([^"]+)".*/\1/')
curl -sS --fail-with-body --cacert "$FATURA_PIX_CA" "https://$location"
echo

curl -sS --fail-with-body --cacert "$FATURA_PIX_CA" -H "Content-Type: application/json" \
  -d "{\"txid\":\"$txid\"}" "$FATURA_PIX_API_URL/simulator/pay"
echo

curl -sS --fail-with-body --cert "$FATURA_PIX_CERT" --key "$FATURA_PIX_CERT_KEY" --cacert "$FATURA_PIX_CA" \
  -H "Authorization: Bearer $token" "$FATURA_PIX_API_URL/cob/$txid"
echo
