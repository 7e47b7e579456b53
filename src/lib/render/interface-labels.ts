/**
 * The interface labels the renderers put around transcript text: a tool's name
 * and outcome in its row, diff hunk headers, "Show N more lines", subagent
 * summaries, permalinks, code gutters, the time and label of a message.
 * Search skips them by these selectors (pagefind's `excludeSelectors` and the
 * words a landing page marks) rather than by a `data-pagefind-ignore` on each
 * element: on long sessions that attribute alone was ~15 KB a page.
 * No imports: bundled into the page script as well as the build.
 */
/**
 * A message's permalink: the one link in its header, or the first child of a
 * continuation (which has no header). No class: every message has one.
 */
const PERMALINKS = ['.msg-head > a', '.msg.cont > a'] as const;
export const PERMALINK = PERMALINKS.join(', ');

export const INTERFACE_LABELS = [
  '.msg-head > time',
  '.msg-head > .msg-label',
  ...PERMALINKS,
  // A tool call's name and outcome in its row (see TOOL_ROW in tools/common.ts).
  '[data-tool] > summary > b',
  '[data-tool] > summary > small',
  '[data-tool] > .tool-head > b',
  '[data-tool] > .tool-head > small',
  '.hunk-head',
  'details.more > summary',
  'details.long > summary',
  '.subagent > summary',
  '.subagent-label',
  '.tool-message.repeat',
  '.gutter',
] as const;
