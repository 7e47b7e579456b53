import { discoverSources } from '../src/lib/discover.js';
import { readJsonl } from '../src/lib/jsonl/read-jsonl.js';
import { walk } from '../src/lib/redact/redactor.js';
import { detectValues } from '../src/lib/redact/rules.js';
import { secretlintValues } from '../src/lib/redact/secretlint.js';
const layout = await discoverSources(process.argv[2]);
const seen = new Map<string,string>();
const users = new Set<string>();
for (const s of layout.sessions) {
  const all: string[] = [];
  for (const f of [s.path, ...s.subagentPaths]) { const r = await readJsonl(f); walk(r.records.map(x=>x.value), (x) => { all.push(x); return x; }); }
  const uniq = [...new Set(all)];
  for (const x of uniq) detectValues(x, (rule, v) => { if (!seen.has(v)) seen.set(v, rule + '  ' + s.relPath.slice(0,40)); }, (u) => users.add(u));
  for (const h of await secretlintValues(uniq)) if (!seen.has(h.value)) seen.set(h.value, 'SL:' + h.rule);
}
for (const [v, r] of seen) console.log(r.padEnd(60), JSON.stringify(v).slice(0, 120));
console.log([...users].join(' '));
