import { discoverSources } from '../src/lib/discover.js';
import { readJsonl } from '../src/lib/jsonl/read-jsonl.js';
import { walk } from '../src/lib/redact/redactor.js';
import { HOME_PATH_SOURCE } from '../src/lib/redact/rules.js';
const layout = await discoverSources('/work/shared/corpus/projects');
const all: string[] = [];
for (const s of layout.sessions) for (const f of [s.path, ...s.subagentPaths]) walk((await readJsonl(f)).records.map(r => r.value), x => { all.push(x); return x; });
const P = String.raw`\[REDACTED:[a-z0-9-]+(?:#\d+)?\]`;
const variants: Record<string, RegExp> = {
  full: new RegExp(`(${P})|(jesse@fsck\\.com)|${HOME_PATH_SOURCE}|(?<![A-Za-z0-9])([dD][aA][iI][nN])(?![A-Za-z0-9])|(?<![A-Za-z0-9])((?!))(?![A-Za-z0-9])`, 'g'),
  noWin: new RegExp(`(${P})|(jesse@fsck\\.com)|(?<![\\w.~-])/(?:home|Users)/([A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?)|(?<![A-Za-z0-9])([dD][aA][iI][nN])(?![A-Za-z0-9])`, 'g'),
  noUser: new RegExp(`(${P})|(jesse@fsck\\.com)|(?<![\\w.~-])/(?:home|Users)/([A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?)`, 'g'),
  userFirst: new RegExp(`(${P})|(jesse@fsck\\.com)|(?<![\\w.~-])/(?:home|Users)/([A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?)|([dD][aA][iI][nN])(?![A-Za-z0-9])`, 'g'),
  homeOnly: new RegExp(`/(?:home|Users)/`, 'g'),
  winOnly: new RegExp(`(?<![A-Za-z0-9])[A-Za-z]:(?:\\\\{1,4}|/)Users(?:\\\\{1,4}|/)`, 'g'),
  winUsersFirst: new RegExp(`Users(?:\\\\{1,4}|/)`, 'g'),
};
for (let r = 0; r < 2; r++) for (const [name, re] of Object.entries(variants)) {
  const t = performance.now(); let n = 0;
  for (const s of all) for (const m of s.matchAll(re)) n++;
  console.log(name, (performance.now() - t).toFixed(1), n);
}
const N = `([A-Za-z0-9_](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?)`;
const more: Record<string, RegExp> = {
  noLookbehind: new RegExp(`(${P})|(jesse@fsck\\.com)|/(?:home|Users)/${N}|[A-Za-z]:(?:\\\\{1,4}|/)Users(?:\\\\{1,4}|/)${N}|([dD][aA][iI][nN])(?![A-Za-z0-9])|((?!))`, 'g'),
  winLater: new RegExp(`(${P})|(jesse@fsck\\.com)|/(?:home|Users)/${N}|:(?:\\\\{1,4}|/)Users(?:\\\\{1,4}|/)${N}|([dD][aA][iI][nN])(?![A-Za-z0-9])|((?!))`, 'g'),
};
for (let r = 0; r < 3; r++) for (const [name, re] of Object.entries(more)) {
  const t = performance.now(); let n = 0;
  for (const s of all) for (const m of s.matchAll(re)) n++;
  console.log(name, (performance.now() - t).toFixed(1), n);
}
console.log('--- min of 7');
const cand = { full: variants.full, noLookbehind: more.noLookbehind, userFirst: variants.userFirst, noUser: variants.noUser };
for (const [name, re] of Object.entries(cand)) {
  let best = 1e9;
  for (let r = 0; r < 7; r++) { const t = performance.now(); for (const s of all) for (const m of s.matchAll(re)) {} best = Math.min(best, performance.now() - t); }
  console.log(name, best.toFixed(1));
}
