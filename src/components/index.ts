/**
 * `sessionpress/components`: what an MDX page of any site can import, e.g.
 * `import { Session } from 'sessionpress/components'` and
 * `<Session id="6ad40a5a" prompt={2} />`.
 */
export { default as Session } from './Session.astro';
