/**
 * The XSS check of xss.test.ts, for the renderers added later (issue 11):
 * every payload of EXPECT.json is put in every field a renderer reads, and
 * nothing executable may come out; the payload's marker stays readable.
 */
import { expect } from 'vitest';
import { loadExpect } from '../../helpers/render.js';
import { eventHandlerAttributes, forbiddenMatches, parse } from './dom.js';

interface Payload {
  id: string;
  marker: string;
  payload: string;
}

const xss = loadExpect().xss as { forbidden_selectors: string[]; payloads: Payload[] };

/** Every payload of the fixtures (more than ten; the check fails on an empty list). */
export function xssPayloads(): Payload[] {
  expect(xss.payloads.length).toBeGreaterThan(10);
  return xss.payloads;
}

/**
 * Renders each position with each payload and checks the output is inert:
 * no forbidden element, no event handler, no style attribute, no `data:` URL.
 * Positions listed in `markerHidden` may drop the text (a field shown only as
 * a class or an anchor); every other position must show the marker.
 */
export function expectInert(positions: Array<[string, (p: string) => string]>, markerHidden: string[] = []): void {
  for (const payload of xssPayloads()) {
    const rendered = positions.map(([where, render]) => ({ where, out: render(payload.payload) }));
    const doc = parse(rendered.map((r, i) => `<div data-pos="${i}">${r.out}</div>`).join('\n'));
    const bad = (root: Element | Document) => [
      ...forbiddenMatches(root, xss.forbidden_selectors),
      ...eventHandlerAttributes(root),
      ...(root.querySelector('[style]') ? ['[style]'] : []),
      ...(root.querySelector('[src^="data:" i], [href^="data:" i]') ? ['data: URL'] : []),
    ];
    // One check over all positions (one combined selector: jsdom is slow); only a failure is narrowed down to its position.
    const anyBad = doc.querySelector(`${xss.forbidden_selectors.join(', ')}, [style], [src^="data:" i], [href^="data:" i]`) !== null || eventHandlerAttributes(doc).length > 0;
    const wrappers = [...doc.body.children];
    expect(wrappers.length).toBe(rendered.length);
    for (let i = 0; i < rendered.length; i++) {
      const pos = wrappers[i].getAttribute('data-pos') === String(i) ? wrappers[i] : null;
      expect(pos, `${payload.id} ${rendered[i].where} wrapper`).not.toBeNull();
      if (anyBad) expect(bad(pos as Element), `${payload.id} as ${rendered[i].where}`).toEqual([]);
      if (payload.payload.includes(payload.marker) && !markerHidden.includes(rendered[i].where)) {
        expect(pos!.textContent ?? '', `${payload.id} as ${rendered[i].where}: marker visible`).toContain(payload.marker);
      }
    }
  }
}
