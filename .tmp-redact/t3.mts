import { benchRedaction } from '../src/lib/redact/bench.js';
for (const root of process.argv.slice(2)) console.log(root, await benchRedaction(root));
