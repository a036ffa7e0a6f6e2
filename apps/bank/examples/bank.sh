# From the repository's root, once built: the bank keeps its keys, its book and every file it received and wrote in
# FATURA_BANK_DIR (.bank by default), prints the settings Fatura needs as export lines, where its files are and where
# its simulator listens, and serves SFTP on 127.0.0.1:2222 (FATURA_BANK_SFTP_PORT) and the simulator on :4010
# (FATURA_BANK_SIMULATOR_PORT) until SIGTERM or Ctrl-C.
npx -y pnpm@10.34.9 exec node apps/bank/dist/main.js
