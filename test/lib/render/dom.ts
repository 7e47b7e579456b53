/** Parses rendered fragments with jsdom for assertions. */
import { JSDOM } from 'jsdom';

/** A document whose body holds the fragment. */
export function parse(fragment: string): Document {
  return new JSDOM(`<!DOCTYPE html><html><body>${fragment}</body></html>`).window.document;
}

/** Forbidden selectors (from EXPECT.json) that match anything in the document. */
export function forbiddenMatches(doc: ParentNode, selectors: string[]): string[] {
  return selectors.filter((s) => {
    try {
      return doc.querySelector(s) !== null;
    } catch {
      // A selector jsdom cannot parse (none expected) must not pass silently.
      throw new Error(`unparseable selector ${s}`);
    }
  });
}

/** Every element attribute that is an event handler (`on*`). */
export function eventHandlerAttributes(doc: ParentNode): string[] {
  const out: string[] = [];
  for (const el of doc.querySelectorAll('*')) {
    for (const a of el.attributes) if (/^on/i.test(a.name)) out.push(`${el.tagName.toLowerCase()}[${a.name}]`);
  }
  return out;
}
