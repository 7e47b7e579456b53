import { readHead } from '../../../src/lib/build/open-session.js';
import { promptTitleText, shortenTitle } from '../../../src/lib/transcript/build-session.js';
import { isHumanPrompt, textOf, toEntry } from '../../../src/lib/transcript/entries.js';

/** How much of a session file is read to find its title for the picker. */
const HEAD_BYTES = 256 * 1024;

/**
 * A short title for the session picker: the first human prompt, on one line
 * and shortened by the site's rules. Not the model's full `title`: it only
 * reads the head of the file, so listing hundreds of sessions stays fast.
 */
export async function quickTitle(path: string): Promise<string> {
  const text = await readHead(path, HEAD_BYTES);
  let summary: string | undefined;
  for (const line of text.split('\n')) {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue; // blank, bad, or cut off at the end of the head
    }
    if (entry.type === 'summary' && typeof entry.summary === 'string') summary ??= entry.summary;
    const prompt = promptText(entry);
    if (prompt) return shortenTitle(prompt);
  }
  // A summary can carry markdown as a prompt can: it reads as plain words too.
  const plain = summary && promptTitleText(summary);
  return plain ? shortenTitle(plain) : '(no prompt)';
}

/** The text a person typed, or undefined for tool results, meta entries and command wrappers (the model's own rule). */
export function promptText(entry: Record<string, unknown>): string | undefined {
  const e = toEntry({ line: 0, value: entry }, 0);
  if (!isHumanPrompt(e)) return undefined;
  return promptTitleText(textOf(e)) || undefined;
}
