# From the repository's root, once built, with DATABASE_URL naming the service's Postgres (the worker refuses to start
# without it). It migrates the database if it has to, then works until SIGTERM or Ctrl-C.
npx -y pnpm@10.34.9 exec node apps/worker/dist/main.js
