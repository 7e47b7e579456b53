/**
 * Type-level proof that only `SafeHtml` reaches `set:html`: every line marked
 * `@ts-expect-error` must be a type error, or `tsc` fails on the unused
 * directive. Checked by `npm run typecheck` (this file is in the project) and
 * by test/lib/render/safe-html.test.ts, which runs `tsc` on it alone.
 * Nothing here runs.
 */
import type { HtmlProps } from '../../src/components/html-props.js';
import { html, joinHtml, sanitized, SafeHtml, spliceHtml } from '../../src/lib/render/sanitize.js';

declare const transcriptText: string;

// The two makers give SafeHtml, and it is what the component takes.
export const fromTag: HtmlProps = { html: html`<p>${transcriptText}</p>` };
export const fromSanitiser: HtmlProps = { html: sanitized(transcriptText) };
export const joined: HtmlProps = { html: joinHtml([fromTag.html, fromSanitiser.html], html`\n`) };
export const attrs: HtmlProps = { html: fromTag.html, as: 'section', class: 'transcript', 'data-transcript': true };

// A plain string is not SafeHtml, wherever SafeHtml is asked for.
// @ts-expect-error a string cannot be passed as the component's markup
export const plain: HtmlProps = { html: transcriptText };
// @ts-expect-error a string literal neither
export const literal: HtmlProps = { html: '<b>bold</b>' };
// @ts-expect-error nor a String object
export const boxed: HtmlProps = { html: new String(transcriptText) };
// @ts-expect-error nor an object that looks like SafeHtml from outside (the brand is a private field)
export const lookalike: HtmlProps = { html: { value: transcriptText, toString: () => transcriptText } };
// @ts-expect-error nor a number, undefined or null
export const missing: HtmlProps = { html: undefined };
// @ts-expect-error a string is not a SafeHtml variable either
export const variable: SafeHtml = transcriptText;
// @ts-expect-error and the constructor needs a key only sanitize.ts holds
export const forged = new SafeHtml(Symbol('SafeHtml maker'), transcriptText);
// @ts-expect-error replacements in markup must be SafeHtml, not strings
export const spliced = spliceHtml(fromTag.html, /x/g, () => transcriptText);

// `html` takes strings, but as text: its result is SafeHtml whatever it interpolates.
export const escaped: SafeHtml = html`<a title="${transcriptText}">${transcriptText}</a>`;
// A string is never SafeHtml by way of a type assertion short of `as unknown as`, which review can grep for.
// @ts-expect-error
export const asserted = transcriptText as SafeHtml;
