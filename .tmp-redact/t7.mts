import { benchRedaction } from '../src/lib/redact/bench.js';
for (let i = 0; i < 3; i++) console.log(await benchRedaction('/work/shared/corpus/projects'));
