/** Messages at the top level of a transcript (not nested in a subagent's transcript). */
export function topLevel(root: Element): Element[] {
  return [...root.querySelectorAll('article.msg[data-uuid]')].filter((a) => !a.parentElement?.closest('article.msg'));
}

/**
 * A message's body: its children but the header (and a continuation's
 * permalink, which stands in for it). An excerpt must repeat it byte for byte;
 * only the header may differ: the session page folds a reply's later messages
 * under its first header, while a quoted message standing alone must say who speaks.
 */
export function messageBody(article: Element): string {
  return [...article.children].filter((c) => !c.matches('header.msg-head') && !c.matches('.msg.cont > a')).map((c) => c.outerHTML).join('');
}
