/**
 * `text` as a regular expression that matches it literally. Pure, with no
 * Node imports: the browser's search highlighting uses it too.
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
