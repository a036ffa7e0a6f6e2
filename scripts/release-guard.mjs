// Every library's `prepublishOnly`: a library is published by `pnpm release` alone, which checks the registry first.
// Without it, `npm publish` in a library's folder would not read the root .npmrc and would go to the public registry.
if (process.env.FATURA_RELEASE !== "1") {
  console.error(
    "Refused: publish the @fatura libraries with `pnpm release` from the repository root (README: Releasing), " +
      "which publishes them to the company registry and nowhere else."
  )
  process.exit(1)
}
