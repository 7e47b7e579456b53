/**
 * Tags Claude Code writes into user text (a teammate's message, a message
 * from another session, a background task finishing, a fork's boilerplate,
 * IDE context, reminders, slash commands), split out of the text. Pure data:
 * the model reads them to classify messages and link agents, the renderer
 * (render/tagged-text.ts) shows them as what they mean.
 */

/** The tags understood, in the order they are looked for. */
export const PROMPT_TAGS = [
  'teammate-message',
  'cross-session-message',
  'task-notification',
  'fork-boilerplate',
  'local-command-caveat',
  'system-reminder',
  'ide_selection',
  'ide_opened_file',
  'command-name',
  'command-message',
  'command-args',
] as const;

export type PromptTag = (typeof PROMPT_TAGS)[number];

export interface Segment {
  /** The tag, or undefined for plain text between tags. */
  tag?: PromptTag;
  /** Attributes of the opening tag (`teammate_id`, `color`, `summary`, `from-name`). */
  attrs: Record<string, string>;
  body: string;
}

// A tag counts only at the start of a line, as Claude Code writes them: a tag mentioned inside a sentence stays text.
const TAG_RE = new RegExp(`(?<=^|\\n)[ \\t]*<(${PROMPT_TAGS.join('|')})((?:\\s+[\\w-]+\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*>([\\s\\S]*?)</\\1\\s*>`, 'g');
const ATTR_RE = /([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Whether the text holds at least one complete known tag. */
export function hasPromptTags(text: string): boolean {
  TAG_RE.lastIndex = 0;
  return TAG_RE.test(text);
}

/** Splits text into plain segments and known tag blocks (a tag never closed stays text). */
export function splitTaggedText(text: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  TAG_RE.lastIndex = 0;
  for (let m = TAG_RE.exec(text); m; m = TAG_RE.exec(text)) {
    if (m.index > last) out.push({ attrs: {}, body: text.slice(last, m.index) });
    const attrs: Record<string, string> = {};
    for (const a of m[2].matchAll(ATTR_RE)) attrs[a[1]] = a[2] ?? a[3] ?? '';
    out.push({ tag: m[1] as PromptTag, attrs, body: m[3] });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ attrs: {}, body: text.slice(last) });
  return out;
}

/** The words Claude Code puts before a `<cross-session-message>`: the tag says it already. */
export const CROSS_SESSION_INTRO = /^\s*Another Claude session sent a message:\s*$/;

/** What a fork's boilerplate puts before the directive. */
const DIRECTIVE_PREFIX = /^\s*Your directive:\s*/;

/**
 * Whether user text is a message from another agent: it opens with a
 * teammate's `<teammate-message>` or another session's
 * `<cross-session-message>` (after the words that announce it), and holds
 * nothing but such messages.
 */
export function isAgentMessageText(text: string): boolean {
  const t = text.trimStart();
  // Cheap first look: most user text is nothing of the kind.
  if (!t.startsWith('<teammate-message') && !t.startsWith('<cross-session-message') && !t.startsWith('Another Claude session')) return false;
  const segments = splitTaggedText(t);
  return segments.some((s) => s.tag) && segments.every((s) => s.tag === 'teammate-message' || s.tag === 'cross-session-message' || (!s.tag && (!s.body.trim() || CROSS_SESSION_INTRO.test(s.body))));
}

/** How an agent's transcript opens: what it was asked, and who asked. */
export interface AgentOpening {
  /** The words of the request: a fork's directive, a teammate's spawn prompt, or the text as written. */
  prompt: string;
  /** A fork's boilerplate came first. */
  fork?: boolean;
  /** A teammate's spawn prompt: the sender (`team-lead`) and its summary. */
  from?: string;
  summary?: string;
}

/**
 * Reads the first user text of an agent file: a fork's `<fork-boilerplate>`
 * rules are taken off (the directive after them is what it was asked), a
 * teammate's spawn prompt is unwrapped from its `<teammate-message>`.
 */
export function agentOpening(text: string): AgentOpening {
  const segments = splitTaggedText(text.trimStart());
  const [first, ...rest] = segments;
  if (first?.tag === 'fork-boilerplate') {
    return { prompt: rest.map((s) => s.body).join('').replace(DIRECTIVE_PREFIX, '').trim(), fork: true };
  }
  const wrapped = segments.filter((s) => s.tag || s.body.trim());
  if (wrapped.length === 1 && wrapped[0].tag === 'teammate-message') {
    const s = wrapped[0];
    return { prompt: s.body.trim(), from: s.attrs.teammate_id, ...(s.attrs.summary ? { summary: s.attrs.summary } : {}) };
  }
  return { prompt: text };
}

/** A fork's directive as a reader sees it: the `Your directive:` prefix taken off. */
export function stripDirectivePrefix(text: string): string {
  return text.replace(DIRECTIVE_PREFIX, '');
}
