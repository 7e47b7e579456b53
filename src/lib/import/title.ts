import { open } from 'node:fs/promises';

/** How much of a session file is read to find its title for the picker. */
const HEAD_BYTES = 256 * 1024;
const MAX_TITLE = 72;

/**
 * A short title for the session picker: the first human prompt, on one line
 * and shortened. A stopgap until the transcript model's own `title`: it only
 * reads the head of the file, so listing hundreds of sessions stays fast.
 */
export async function quickTitle(path: string): Promise<string> {
  const handle = await open(path, 'r');
  let text: string;
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    text = buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
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
    if (prompt) return shorten(prompt);
  }
  return summary ? shorten(summary) : '(no prompt)';
}

/** The text a person typed, or undefined for tool results, meta entries and command wrappers. */
export function promptText(entry: Record<string, unknown>): string | undefined {
  if (entry.type !== 'user' || entry.isMeta || entry.isSidechain || entry.isCompactSummary) return undefined;
  const message = entry.message as { content?: unknown } | undefined;
  const content = message?.content;
  let text: string | undefined;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    const block = content.find((b) => b && typeof b === 'object' && (b as { type?: unknown }).type === 'text') as { text?: unknown } | undefined;
    if (block && typeof block.text === 'string') text = block.text;
  }
  if (!text) return undefined;
  const trimmed = text.trim();
  // `<command-name>`, `<local-command-stdout>`, caveats: generated, not typed.
  if (!trimmed || trimmed.startsWith('<') || trimmed.startsWith('Caveat:')) return undefined;
  return trimmed;
}

function shorten(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > MAX_TITLE ? `${one.slice(0, MAX_TITLE - 1)}…` : one;
}
