import type { ContentBlock, KeptText, PersistedOutputRef } from './types.js';

/**
 * Whole outputs kept by Claude Code beside the session as
 * `<session-id>/tool-results/<name>` (a tool call's id, a short random id like
 * `byshsvyn3.txt`, or `hook-<uuid>-stdout.txt` for a hook), by file name. The
 * contents are redacted with the session before the model sees them.
 */
export type PersistedOutputs = Map<string, string>;

const OPEN = '<persisted-output>';
const CLOSE = '</persisted-output>';
/** `Full output saved to: <path>` (2.1.x) or `Tool result saved to: <path>` (earlier). */
const SAVED_TO = /(?:Full output|Tool result|Output has been) saved to:?\s*(\S+)/;
/** The line that introduces the preview's text. */
const PREVIEW_HEAD = /^Preview \([^)\n]*\):?[ \t]*\n/m;

/** The file name of a kept output's path (the path itself names the user's home and is redacted; the name is not). */
export function keptFileName(path: string): string | undefined {
  const name = path.replace(/[.,;:)]+$/, '').split(/[\\/]/).pop();
  return name || undefined;
}

/**
 * The file a `<persisted-output>` preview points to: the last path segment,
 * whatever it is called. Undefined for any other text.
 */
export function persistedOutputName(text: string): string | undefined {
  const at = text.indexOf(OPEN);
  if (at === -1) return undefined;
  const m = SAVED_TO.exec(text.slice(at, at + 2000));
  return m ? keptFileName(m[1]) : undefined;
}

/**
 * What a `<persisted-output>` preview shows of the output (its preview text,
 * without the wrapper and the "saved to" line), for when the whole output is
 * not there. Text without a preview is returned as it is.
 */
export function previewText(text: string): string {
  const at = text.indexOf(OPEN);
  if (at === -1) return text;
  const end = text.indexOf(CLOSE, at);
  const inner = text.slice(at + OPEN.length, end === -1 ? undefined : end);
  const head = PREVIEW_HEAD.exec(inner);
  const body = head ? inner.slice(head.index + head[0].length) : inner.replace(SAVED_TO, '');
  return `${text.slice(0, at)}${body.replace(/^\n+|\s+$/g, '')}${end === -1 ? '' : text.slice(end + CLOSE.length)}`.trim();
}

function contentText(content: string | ContentBlock[]): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (b.type === 'text' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : '')).join('\n');
}

/**
 * The kept file a tool result points to, and its whole text when it was read.
 * A result points to one by a `<persisted-output>` preview in its content, or
 * (2.1.22x) by `toolUseResult.persistedOutputPath` beside a `stdout` cut at
 * 30,000 characters. Undefined for a result that points to none.
 */
export function resolvePersistedOutput(
  content: string | ContentBlock[],
  toolUseResult: unknown,
  persisted: PersistedOutputs,
): { ref: PersistedOutputRef; content?: string } | undefined {
  const structured = toolUseResult && typeof toolUseResult === 'object' && !Array.isArray(toolUseResult) ? (toolUseResult as Record<string, unknown>) : undefined;
  const path = typeof structured?.persistedOutputPath === 'string' ? structured.persistedOutputPath : undefined;
  const file = persistedOutputName(contentText(content)) ?? (path ? keptFileName(path) : undefined);
  if (!file) return undefined;
  const whole = persisted.get(file);
  if (whole !== undefined) return { ref: { file, chars: whole.length }, content: whole };
  const size = structured?.persistedOutputSize;
  return { ref: { file, missing: true, ...(typeof size === 'number' && Number.isFinite(size) ? { bytes: size } : {}) } };
}

/**
 * A text field of a record (a string, or a list of strings) with every
 * `<persisted-output>` preview in it replaced by the whole output it points
 * to. A preview whose file was not read keeps its preview text, and its file
 * is listed as missing. Undefined when the field holds no preview.
 */
export function resolveKeptText(value: unknown, persisted: PersistedOutputs): KeptText | undefined {
  const pieces = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  const files: string[] = [];
  const missing: string[] = [];
  const text = pieces.map((piece) => {
    const file = persistedOutputName(piece);
    if (!file) return piece;
    const whole = persisted.get(file);
    if (whole === undefined) {
      missing.push(file);
      return previewText(piece);
    }
    files.push(file);
    return whole;
  });
  return files.length || missing.length ? { text: text.join('\n'), files, missing } : undefined;
}
