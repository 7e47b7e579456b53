/**
 * Sample 4, playground on Claude Code 2.1.39: "Copying objects". One short
 * question and answer (thinking, a Markdown table, TypeScript and Python code
 * blocks): the quick read on the index page. It also holds the search word.
 */
import { createIds } from './dsl/ids.js';
import { lines } from './dsl/project.js';
import type { SampleSession } from './dsl/sample.js';
import { createTranscript, text, thinking } from './dsl/transcript.js';

/** Occurs in exactly one message of all the samples, for search tests. */
export const SEARCH_WORD = 'kerfuffle';

/** The playground session. */
export function copyingObjectsSample(): SampleSession {
  const ids = createIds(0xc0b1e5);
  const sessionId = ids.uuid();
  const t = createTranscript({
    ids,
    sessionId,
    cwd: '/home/demo/projects/playground',
    version: '2.1.39',
    gitBranch: 'main',
    model: 'claude-opus-4-6',
    start: '2026-02-05T15:20:09.331Z',
    slug: 'curious-copying-finch',
  });
  t.prompt(
    "Quick one: in TypeScript, what's the difference between spreading an object, `structuredClone`, and `JSON.parse(JSON.stringify(x))`? And what are the Python equivalents?",
  );
  t.assistant(
    [
      thinking(
        'Compare shallow spread, structuredClone and the JSON round trip on depth, Date, Map/Set, functions and cycles. Then Python: copy.copy, copy.deepcopy and json. Keep it short, one table and two small examples.',
      ),
      text(ANSWER),
    ],
    { latency: 4 },
  );
  t.turnDone();
  t.wait(48);
  const thanks = t.prompt(`Perfect, that clears up the whole ${SEARCH_WORD} I had with dates turning into strings. Thanks!`);
  t.assistant([
    text(
      "Glad it helped! If you ever need the dates back after a JSON round trip, a reviver does it: `JSON.parse(text, (key, value) => key === 'start' ? new Date(value) : value)`.",
    ),
  ]);
  t.turnDone();
  return {
    title: 'Copying objects',
    files: [{ path: `-home-demo-projects-playground/${sessionId}.jsonl`, lines: t.lines }],
    landmarks: { sessionId, searchWordMessage: thanks },
  };
}

/** The answer: one table, then the same example in each language. */
const ANSWER = lines(
  'They differ in **how deep** they copy and **which types survive**:',
  '',
  '| Approach | Depth | `Date` | `Map` / `Set` | Functions | Cycles |',
  '|---|---|---|---|---|---|',
  '| `{ ...obj }` | shallow | same object | same object | kept (shared) | fine (shared) |',
  '| `structuredClone(obj)` | deep | copied as a `Date` | copied | **throws** | preserved |',
  '| `JSON.parse(JSON.stringify(obj))` | deep | becomes a string | becomes `{}` | dropped | **throws** |',
  '',
  'Rule of thumb: spread when you only change top-level fields, `structuredClone` for a real deep copy, and the JSON round trip only when plain JSON data is what you want.',
  '',
  '```ts',
  "const trip = { name: 'Alps', start: new Date('2026-03-01'), people: new Set(['ana', 'ben']) };",
  '',
  'const shallow = { ...trip };        // shallow.people === trip.people',
  'const deep = structuredClone(trip); // a new Set, and deep.start is still a Date',
  'const viaJson = JSON.parse(JSON.stringify(trip));',
  "// viaJson.start is '2026-03-01T00:00:00.000Z' and viaJson.people is {}",
  '```',
  '',
  "Python's `copy` module covers the first two, and `json` behaves much like JavaScript's:",
  '',
  '```python',
  'import copy',
  'import json',
  'from datetime import date',
  '',
  'trip = {"name": "Alps", "start": date(2026, 3, 1), "people": {"ana", "ben"}}',
  '',
  'shallow = copy.copy(trip)   # shallow["people"] is trip["people"]',
  'deep = copy.deepcopy(trip)  # a new set; the date is kept as a date',
  'via_json = json.loads(json.dumps(trip, default=str))',
  '# via_json["start"] == "2026-03-01", and the set became a string too',
  '```',
  '',
  '`copy.deepcopy` also copes with cycles (it remembers what it has already copied), so it is the closest match to `structuredClone`.',
);
