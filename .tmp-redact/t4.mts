import { discoverSources } from '../src/lib/discover.js';
import { readJsonl } from '../src/lib/jsonl/read-jsonl.js';
import { walk } from '../src/lib/redact/redactor.js';
import { detectValues } from '../src/lib/redact/rules.js';
import { secretlintValues } from '../src/lib/redact/secretlint.js';
import { HOME_PATH_SOURCE } from '../src/lib/redact/rules.js';
const layout = await discoverSources(process.argv[2]);
const all: string[] = [];
for (const s of layout.sessions) for (const f of [s.path, ...s.subagentPaths]) { const r = await readJsonl(f); walk(r.records.map(x=>x.value), (x) => { all.push(x); return x; }); }
const uniq = [...new Set(all.filter(s=>s.length>=7))];
const len = (a: string[]) => a.reduce((n, s) => n + s.length, 0);
console.log('strings', all.length, len(all)/1e6, 'unique', uniq.length, len(uniq)/1e6);
let t = performance.now(); let n=0;
for (const s of uniq) detectValues(s, () => {n++}, () => {});
console.log('own rules ms', performance.now() - t, n);
t = performance.now();
const hits = await secretlintValues(uniq);
console.log('secretlint ms', performance.now() - t, hits.length);
const re = new RegExp(`(\\[REDACTED:[a-z0-9-]+(?:#\\d+)?\\])|(abcdefgh1234|zzzzqqqq9999)|${HOME_PATH_SOURCE}|(?<![A-Za-z0-9])([dD][aA][iI][nN]|[pP][eE][tT][eE])(?![A-Za-z0-9])`, 'g');
t = performance.now(); n=0;
for (const s of all) { for (const m of s.matchAll(re)) n++; }
console.log('pass2 regex ms', performance.now() - t, n);
