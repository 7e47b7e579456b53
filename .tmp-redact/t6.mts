import { createRedactor } from '../src/lib/redact/index.js';
import { readJsonl } from '../src/lib/jsonl/read-jsonl.js';
const files = process.argv.slice(2);
const values: unknown[] = [];
for (const f of files) values.push(...(await readJsonl(f)).records.map(r => r.value));
const r = await createRedactor().redactSession(values, { projectFolders: [files[0].split('/').at(-2)!] });
for (const f of r.findings) console.log(f.rule, f.count, JSON.stringify(f.samples));
const out = JSON.stringify(values);
console.log([...new Set(out.match(/.{0,40}\[REDACTED:[^\]]+\].{0,20}/g))].slice(0, 80).join('\n'));
