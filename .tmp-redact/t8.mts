import { discoverSources } from '../src/lib/discover.js';
import { readJsonl } from '../src/lib/jsonl/read-jsonl.js';
import { walk, createRedactor } from '../src/lib/redact/redactor.js';
const layout = await discoverSources('/work/shared/corpus/projects');
const sessions: unknown[][] = [];
for (const s of layout.sessions) { const v: unknown[] = []; for (const f of [s.path, ...s.subagentPaths]) v.push(...(await readJsonl(f)).records.map(r => r.value)); sessions.push(v); }
const clone = () => sessions.map(v => structuredClone(v));
for (let round = 0; round < 3; round++) {
  let c = clone();
  let t = performance.now();
  for (const v of c) { const set = new Set<string>(); walk(v, s => { if (s.length >= 7) set.add(s); return s; }); }
  const tWalkSet = performance.now() - t;
  t = performance.now();
  for (const v of c) { walk(v, s => s); }
  const tWalk = performance.now() - t;
  c = clone();
  const r = createRedactor();
  t = performance.now();
  for (const v of c) await r.redactSession(v);
  const tAll = performance.now() - t;
  console.log({ tWalkSet, tWalk, tAll });
}
