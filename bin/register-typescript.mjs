// Lets Node load the commands' TypeScript (scripts/*.ts and the src/ they import). Imported for its
// effect: by bin/sessionpress.mjs, and by the template's scripts as `node --import ./bin/register-typescript.mjs`.
//
// Why not tsx, which did this before: tsx registers its hooks on a separate loader thread, so every module
// Node loads afterwards (all of Astro's and Vite's, about a thousand) crosses threads twice; loading Astro
// and Vite took 2.0 s through it against 1.0 s without, on every build. Node 22.15 and later run hooks in
// the loading thread (`module.registerHooks`) and strip types themselves (`module.stripTypeScriptTypes`),
// so two small synchronous hooks do the same for our files and nothing for anyone else's:
// - resolve: our imports name the compiled file (`./x.js`, as TypeScript wants); when no such file
//   exists beside a `.ts` file that imports it, the `.ts` one is meant.
// - load: a `.ts` file is read and its types are replaced by spaces (so line and column numbers in stack
//   traces stay right). Node's own type stripping is not enough: it refuses files under node_modules,
//   which is where an installed sessionpress lives. Only erasable syntax is allowed (no enum, no
//   parameter property): tsconfig.json's `erasableSyntaxOnly` keeps the sources to it.
// On Node 22.12 to 22.14 (which Astro 7 supports) these hooks do not exist: tsx is registered instead.
import module from 'node:module';
import { readFileSync } from 'node:fs';
import { NODE_STRIPS_TYPES } from './node-hooks.mjs';

if (NODE_STRIPS_TYPES) {
  module.registerHooks({ resolve: resolveTypeScript, load: loadTypeScript });
} else {
  const { register } = await import('tsx/esm/api');
  register();
}

/** A relative `.js` import from a `.ts` file that finds no `.js` file resolves to the `.ts` file of that name. */
function resolveTypeScript(specifier, context, nextResolve) {
  try {
    return nextResolve(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('./') || specifier.startsWith('../');
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !relative || !specifier.endsWith('.js') || !context.parentURL?.endsWith('.ts')) throw error;
    return nextResolve(`${specifier.slice(0, -'.js'.length)}.ts`, context);
  }
}

/** A `.ts` file loads as an ES module with its types stripped; anything else is Node's to load. */
function loadTypeScript(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  return { format: 'module', source: stripTypes(readFileSync(new URL(url), 'utf8')), shortCircuit: true };
}

/**
 * `stripTypeScriptTypes` warns on its first use that it is experimental; that line would open every
 * command's output, about a function whose result (the same code with types blanked out) cannot vary.
 * The warning is sent through `process.emitWarning` during the call, so only it is held back.
 */
function stripTypes(source) {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    if (String(warning?.message ?? warning).includes('stripTypeScriptTypes')) return;
    return emitWarning.call(process, warning, ...rest);
  };
  try {
    return module.stripTypeScriptTypes(source, { mode: 'strip' });
  } finally {
    process.emitWarning = emitWarning;
  }
}
