declare module 'virtual:sessionpress/config' {
  /** The integration's options, `sessionpress.config.json` and the environment, validated once by the integration. */
  const config: import('./schemas/config.js').SiteConfig;
  export default config;
}

declare module 'virtual:sessionpress/lazy-highlight' {
  /** Where the browser's highlighter and its grammars are, relative to the site's base (src/integrations/lazy-highlight.ts). */
  export const highlightFolder: string;
}

declare module '*.astro' {
  /** An Astro component re-exported by a TypeScript module (src/components/index.ts); Astro checks its props itself. */
  const component: (props: Record<string, unknown>) => unknown;
  export default component;
}
