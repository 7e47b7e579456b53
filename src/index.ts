/**
 * `sessionpress`: the Astro integration. In astro.config.mjs,
 * `integrations: [sessionpress({ source: './sessions', prefix: '/sessions/' })]`;
 * then `sessions: sessionsCollection()` from `sessionpress/content` in
 * src/content.config.ts, and `<Session>` from `sessionpress/components` in MDX.
 */
import { sessionpress } from './integrations/sessionpress.js';

export { sessionpress };
export type { SessionpressOptions } from './schemas/config.js';
export default sessionpress;
