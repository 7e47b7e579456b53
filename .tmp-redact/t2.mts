import { lintSource } from '@secretlint/core';
import { creator } from '@secretlint/secretlint-rule-preset-recommend';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
function walk(d: string, out: string[] = []) { for (const f of readdirSync(d)) { const p = join(d, f); if (statSync(p).isDirectory()) walk(p, out); else if (p.endsWith('.jsonl')) out.push(p); } return out; }
const files = walk(process.argv[2]);
const strings: string[] = [];
const collect = (v: any) => { if (typeof v === 'string') strings.push(v); else if (Array.isArray(v)) v.forEach(collect); else if (v && typeof v === 'object') for (const k in v) collect(v[k]); };
let bytes = 0;
for (const f of files) { const t = readFileSync(f, 'utf8'); bytes += t.length; for (const l of t.split('\n')) { try { collect(JSON.parse(l)); } catch {} } }
const text = strings.join('\n\u0000\n');
console.log('files', files.length, 'bytes', bytes, 'strings', strings.length, 'textlen', text.length);
const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
for (const chunk of [1e6, 4e6, 16e6]) {
  let t = performance.now(); let n = 0;
  for (let i = 0; i < text.length; i += chunk) {
    const r = await lintSource({ source: { filePath: '/virtual/a.txt', content: text.slice(i, i + chunk), contentType: 'text' }, options: { config, noPhysicFilePath: true } } as any);
    n += r.messages.length;
  }
  const ms = performance.now() - t;
  console.log('chunk', chunk, 'ms', ms.toFixed(0), 'MB/s', (text.length / 1e6 / (ms / 1000)).toFixed(1), 'msgs', n);
}
