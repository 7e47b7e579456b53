import { isSafeHtml, type SafeHtml } from '../lib/render/sanitize.js';

/**
 * Props of `Html.astro`, in a `.ts` file so that `tsc` checks every use the
 * type-check test makes of them (test/types/safe-html.ts): `html` must be
 * `SafeHtml`, never a string. Other attributes go on the element as they are
 * (Astro escapes attribute values).
 */
export interface HtmlProps {
  /** The markup: only the `html` tag and the sanitiser make it. */
  html: SafeHtml;
  /** The element that holds it (default `div`). */
  as?: 'div' | 'section' | 'span';
  class?: string;
  id?: string;
  /** `data-*` and `aria-*` attributes (`data-transcript`, `data-pagefind-ignore`...). */
  [attr: `data-${string}` | `aria-${string}`]: string | boolean | undefined;
}

/** Returns `value` when it is `SafeHtml`; throws otherwise (a page passing anything else is a bug). */
export function assertSafeHtml(value: unknown): SafeHtml {
  if (!isSafeHtml(value)) throw new TypeError(`<Html> takes SafeHtml (from html\`\` or the sanitiser), not ${value === null ? 'null' : typeof value}`);
  return value;
}
