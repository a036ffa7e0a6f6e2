# From the repository's root, once built, with the server running (npx -y pnpm@10.34.9 start) and the test key and
# webhook secret it printed in FATURA_KEY and FATURA_WEBHOOK_SECRET. It stops once the invoice it made is paid.
npx -y pnpm@10.34.9 exec node apps/example/dist/main.js
