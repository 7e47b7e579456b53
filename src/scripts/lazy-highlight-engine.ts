/**
 * The browser's highlighter, loaded by lazy-highlight.ts the first time a
 * plain code block is shown: shiki's core with the JavaScript regex engine (no
 * WASM) and the build's css-variables theme. It is not part of Vite's bundle
 * (240 grammars made every build's client step seconds longer): the
 * lazy-highlight integration bundles it once with esbuild, caches it, and
 * copies it with shiki's grammar modules into the site, where each grammar is
 * fetched the first time a block needs it. Nothing is fetched from elsewhere.
 */
import { createCssVariablesTheme, createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { THEME_NAME, THEME_OPTIONS, toLine, type Line } from '../lib/render/token-classes';

let highlighter: Promise<HighlighterCore> | undefined;
const loading = new Map<string, Promise<boolean>>();

/** Grammar ids as shiki names its modules: nothing that could leave the grammar folder. */
const LANG_ID = /^[a-z0-9][a-z0-9+#._-]*$/i;

/**
 * Tokenises `code` as `lang` into coloured runs, loading the grammar from
 * `langsUrl` (a folder of shiki's grammar modules on this site); undefined when
 * the grammar is unknown or fails to load.
 */
export async function tokenize(code: string, lang: string, langsUrl: string): Promise<Line[] | undefined> {
  if (!LANG_ID.test(lang) || lang.includes('..')) return undefined;
  highlighter ??= createHighlighterCore({ themes: [createCssVariablesTheme(THEME_OPTIONS)], langs: [], engine: createJavaScriptRegexEngine({ forgiving: true }) });
  const h = await highlighter;
  if (!loading.has(lang)) {
    const url = new URL(`${lang}.mjs`, langsUrl).href;
    loading.set(
      lang,
      import(/* @vite-ignore */ url).then(
        (m: { default: never }) => h.loadLanguage(m.default).then(() => true),
        () => false,
      ),
    );
  }
  if (!(await loading.get(lang))) return undefined;
  return h.codeToTokensBase(code, { lang: lang as never, theme: THEME_NAME as never, tokenizeMaxLineLength: 10_000 }).map(toLine);
}
