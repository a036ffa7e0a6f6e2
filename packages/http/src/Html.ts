// Text put into the pages the server writes (the checkout page, the documentation page): escaped, so that what a
// merchant or a payer typed is shown as text and never read as markup.
const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** `text` as it may stand in an element's content or in a quoted attribute value. */
export const escapeText = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => escapes[character] ?? character)
