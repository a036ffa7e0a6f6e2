// How `changeset version` writes a package's CHANGELOG.md: one entry per changeset, in the changeset's own words, and
// the list of workspace packages it now depends on. No commit hashes: the commit that added a changeset is often not
// the change it describes (several are written, or rewritten, together), so its hash would mislead.

/** A changeset's summary as a list item; its further lines and paragraphs stay inside the item. */
const getReleaseLine = async (changeset) => {
  const [first, ...rest] = changeset.summary.split("\n").map((line) => line.trimEnd())
  return [`- ${first}`, ...rest.map((line) => (line === "" ? "" : `  ${line}`))].join("\n")
}

/** Each dependency bumped in this release, once, however many changesets bumped it. */
const getDependencyReleaseLine = async (_changesets, dependenciesUpdated) =>
  dependenciesUpdated.length === 0
    ? ""
    : [
        "- Updated dependencies",
        ...dependenciesUpdated.map(({ name, newVersion }) => `  - ${name}@${newVersion}`)
      ].join("\n")

export default { getReleaseLine, getDependencyReleaseLine }
