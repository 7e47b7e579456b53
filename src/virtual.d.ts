declare module 'virtual:sessionpress/config' {
  /** The user's `sessionpress.config.json` and environment, validated once by the integration. */
  const config: import('./schemas/config.js').SessionpressConfig;
  export default config;
}

declare module 'virtual:sessionpress/lazy-highlight' {
  /** Where the browser's highlighter and its grammars are, relative to the site's base (src/integrations/lazy-highlight.ts). */
  export const highlightFolder: string;
}
