import type { ContentBlock } from './types.js';

/**
 * Whole outputs of large tool results, kept by Claude Code beside the session
 * as `<session-id>/tool-results/<name>.txt`, by file name. The contents are
 * redacted with the session before the model sees them.
 */
export type PersistedOutputs = Map<string, string>;

const OPEN = '<persisted-output>';
/** `Full output saved to: <path>` (2.1.x) or `Tool result saved to: <path>` (earlier). */
const SAVED_TO = /(?:Full output|Tool result|Output has been) saved to:?\s*(\S+)/;

/**
 * The file a `<persisted-output>` preview points to: the last path segment
 * (the path itself names the user's home and is redacted; the name is the tool
 * call's id or a short random one). Undefined for any other result.
 */
export function persistedOutputName(text: string): string | undefined {
  const at = text.indexOf(OPEN);
  if (at === -1) return undefined;
  const m = SAVED_TO.exec(text.slice(at, at + 2000));
  if (!m) return undefined;
  const name = m[1].replace(/[.,;:)]+$/, '').split(/[\\/]/).pop();
  return name || undefined;
}

/**
 * Replaces a `<persisted-output>` preview with the whole output when its file
 * was read. Content may be a string or blocks (the preview is a text block).
 */
export function resolvePersistedOutput(content: string | ContentBlock[], persisted: PersistedOutputs): { content: string; file: string } | undefined {
  const text = typeof content === 'string' ? content : content.map((b) => (b.type === 'text' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : '')).join('\n');
  const name = persistedOutputName(text);
  if (!name) return undefined;
  const whole = persisted.get(name);
  return whole === undefined ? undefined : { content: whole, file: name };
}
