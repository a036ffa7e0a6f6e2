# With the PSP running and the export lines it printed run in this shell: a charge with a due date (today in São Paulo,
# payable that day only, as a boleto), its payload at its location, a payment by the simulator and the charge read
# back; then a second charge, removed before anyone pays it.
set -eu
token=$(curl -sS --fail-with-body --cert "$FATURA_PIX_CERT" --key "$FATURA_PIX_CERT_KEY" --cacert "$FATURA_PIX_CA" \
  -u "$FATURA_PIX_CLIENT_ID:$FATURA_PIX_CLIENT_SECRET" -d grant_type=client_credentials "$FATURA_PIX_OAUTH_URL" |
  sed -E 's/.*"access_token":"([^"]+)".*/\1/')

due=$(TZ=America/Sao_Paulo date +%Y-%m-%d)
terms="{\"calendario\":{\"dataDeVencimento\":\"$due\",\"validadeAposVencimento\":0},
  \"devedor\":{\"cpf\":\"12345678909\",\"nome\":\"Fulana de Tal\"},
  \"valor\":{\"original\":\"25.00\"},\"chave\":\"$FATURA_PIX_KEY\"}"
stamp="$(date +%s)p$$"

txid="vencimentoexemplo$stamp"
charge=$(curl -sS --fail-with-body --cert "$FATURA_PIX_CERT" --key "$FATURA_PIX_CERT_KEY" --cacert "$FATURA_PIX_CA" \
  -H "Authorization: Bearer $token" -H "Content-Type: application/json" -X PUT "$FATURA_PIX_API_URL/cobv/$txid" \
  -d "$terms")
echo "$charge"

# The location of a charge with a due date ends in /cobv/<token>; a payer's app may add ?DPP=<the day it pays>.
location=$(echo "$charge" | sed -E 's/.*"location":"([^"]+)".*/\1/')
curl -sS --fail-with-body --cacert "$FATURA_PIX_CA" "https://$location?DPP=$due"
echo

curl -sS --fail-with-body --cacert "$FATURA_PIX_CA" -H "Content-Type: application/json" \
  -d "{\"txid\":\"$txid\"}" "$FATURA_PIX_API_URL/simulator/pay"
echo

curl -sS --fail-with-body --cert "$FATURA_PIX_CERT" --key "$FATURA_PIX_CERT_KEY" --cacert "$FATURA_PIX_CA" \
  -H "Authorization: Bearer $token" "$FATURA_PIX_API_URL/cobv/$txid"
echo

# Its boleto was paid at the bank: the charge is removed, and the simulator will no longer pay it.
removed="removidaexemplo$stamp"
curl -sS --fail-with-body --cert "$FATURA_PIX_CERT" --key "$FATURA_PIX_CERT_KEY" --cacert "$FATURA_PIX_CA" \
  -H "Authorization: Bearer $token" -H "Content-Type: application/json" -X PUT "$FATURA_PIX_API_URL/cobv/$removed" \
  -d "$terms" >/dev/null
curl -sS --fail-with-body --cert "$FATURA_PIX_CERT" --key "$FATURA_PIX_CERT_KEY" --cacert "$FATURA_PIX_CA" \
  -H "Authorization: Bearer $token" -H "Content-Type: application/json" -X PATCH "$FATURA_PIX_API_URL/cobv/$removed" \
  -d '{"status":"REMOVIDA_PELO_USUARIO_RECEBEDOR"}'
echo
