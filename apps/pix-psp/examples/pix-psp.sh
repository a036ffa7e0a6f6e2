# From the repository's root, once built: the PSP keeps its state in PIX_PSP_DIR (.pix-psp by default), prints the
# settings a client needs as export lines, and serves https://127.0.0.1:8443 (PIX_PSP_PORT) until SIGTERM or Ctrl-C.
npx -y pnpm@10.34.9 exec node apps/pix-psp/dist/main.js
