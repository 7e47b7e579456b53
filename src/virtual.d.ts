declare module 'virtual:sessionpress/config' {
  /** The user's `sessionpress.config.json` and environment, validated once by the integration. */
  const config: import('./schemas/config.js').SessionpressConfig;
  export default config;
}
