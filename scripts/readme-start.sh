#!/usr/bin/env bash
# The README's first command as a newcomer runs it, from the repository's root on a clean checkout:
# `npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 start`. It must create the demo company on its new embedded
# database (./.fatura), print a test key that the API takes, serve on port 3000, and stop on SIGTERM to the server with
# exit code 0 all the way up through pnpm and npx. CI runs it; the embedded database it made is removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

base=http://localhost:3000
if [ -e .fatura ]; then
  echo "readme-start: ./.fatura exists: this check starts from a clean checkout" >&2
  exit 1
fi
if curl -s -o /dev/null "$base/health"; then
  echo "readme-start: something already answers on port 3000" >&2
  exit 1
fi

log=$(mktemp)
# A session of its own, so that whatever is left of it can be found and killed.
setsid bash -c 'npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 start' >"$log" 2>&1 &
leader=$!
finish() {
  kill -KILL -- "-$leader" 2>/dev/null || true
  rm -rf .fatura "$log"
}
trap finish EXIT
fail() {
  echo "readme-start: $1; it printed:" >&2
  cat "$log" >&2
  exit 1
}

for _ in $(seq 1 240); do
  grep -q "Listening on" "$log" && break
  kill -0 "$leader" 2>/dev/null || fail "the command ended before the server listened"
  sleep 0.5
done
grep -q "Listening on" "$log" || fail "the server did not listen within 120 s"

key=$(grep -oE 'sk_test_[0-9A-Za-z]{32}' "$log" | head -n 1)
[ -n "$key" ] || fail "no demo test key was printed"
company=$(curl -s -w '\n%{http_code}' "$base/api/v2/company" -H "Authorization: Bearer $key")
[ "$(tail -n 1 <<<"$company")" = 200 ] || fail "GET /api/v2/company with the printed key answered: $company"
created=$(curl -s -w '\n%{http_code}' -X POST "$base/api/v2/invoices" \
  -H "Authorization: Bearer $key" -H "Content-Type: application/json" \
  -d '{ "method": "pix", "total_price_cents": 12345,
        "payer": { "name": "Maria Souza", "cpf_cnpj": "529.982.247-25", "email": "maria@example.com" } }')
[ "$(tail -n 1 <<<"$created")" = 201 ] || fail "creating a pix invoice with the printed key answered: $created"

server=$(pgrep -s "$leader" -f "^([^ ]*/)?node apps/server/dist/main.js serve" | head -n 1)
[ -n "$server" ] || fail "no server process was found"
kill -TERM "$server"
code=0
wait "$leader" || code=$?
[ "$code" = 0 ] || fail "after SIGTERM the command exited with $code"
echo "readme-start: started, printed a working demo key, created an invoice with it, and stopped on SIGTERM"
