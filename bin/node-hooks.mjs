// Whether this Node runs module hooks in its loading thread and strips types itself (22.15 and later):
// then bin/register-typescript.mjs registers two small hooks of its own, and a process started with them
// loads our TypeScript at full speed. On Node 22.12 to 22.14 the hooks are tsx's, on a loader thread that
// slows every import. No side effect: the template's build and its test ask without registering anything.
import module from 'node:module';

/** True where Node has `module.registerHooks` and `module.stripTypeScriptTypes`. */
export const NODE_STRIPS_TYPES = typeof module.registerHooks === 'function' && typeof module.stripTypeScriptTypes === 'function';
