# From the repository's root, once built, on a fresh embedded database (FATURA_DATA_DIR, ./.fatura unless set):
# register a company, then give it a live key, which comes with the secret that signs its live postbacks.
npx -y pnpm@10.34.9 fatura company create --name "Padaria São João" --cnpj 11.444.777/0001-61 --email oi@padaria.example
npx -y pnpm@10.34.9 fatura keys create 1 --live
