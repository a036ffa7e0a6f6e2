# From the repository's root, once built: register a company on the embedded database (in FATURA_DATA_DIR, ./.fatura
# unless set). It prints the company's id, a test secret key and the secret that signs its test-mode postbacks.
npx -y pnpm@10.34.9 fatura company create --name "Padaria São João" --cnpj 11.444.777/0001-61 --email oi@padaria.example
