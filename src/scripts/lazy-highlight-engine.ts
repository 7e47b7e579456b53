/**
 * The browser's highlighter, loaded by lazy-highlight.ts the first time a
 * plain code block is shown: shiki's core with the JavaScript regex engine (no
 * WASM) and the build's css-variables theme; each grammar is its own chunk,
 * fetched from the site when first needed.
 */
import { createCssVariablesTheme, createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { bundledLanguages } from 'shiki/langs';
import { THEME_NAME, THEME_OPTIONS, toLine, type Line } from '../lib/render/token-classes';

let highlighter: Promise<HighlighterCore> | undefined;
const loading = new Map<string, Promise<boolean>>();

/** Tokenises `code` as `lang` into coloured runs; undefined when the grammar is unknown or fails to load. */
export async function tokenize(code: string, lang: string): Promise<Line[] | undefined> {
  highlighter ??= createHighlighterCore({ themes: [createCssVariablesTheme(THEME_OPTIONS)], langs: [], engine: createJavaScriptRegexEngine({ forgiving: true }) });
  const h = await highlighter;
  const load = (bundledLanguages as Record<string, (() => Promise<unknown>) | undefined>)[lang];
  if (!load) return undefined;
  if (!loading.has(lang)) loading.set(lang, h.loadLanguage(load as never).then(() => true, () => false));
  if (!(await loading.get(lang))) return undefined;
  return h.codeToTokensBase(code, { lang: lang as never, theme: THEME_NAME as never, tokenizeMaxLineLength: 10_000 }).map(toLine);
}
