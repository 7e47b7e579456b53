/**
 * Sample 2, fair-share on Claude Code 2.1.x: "Balance bars". A pasted image, a
 * warmup agent, an Explore subagent in the 2.1.x layout (`<session>/subagents/`),
 * WebSearch with its progress entries, WebFetch, and a prompt queued while
 * Claude was still working. The session starts where the first one ended.
 */
import { createIds, type Ids } from './dsl/ids.js';
import type { JsonObject } from './dsl/json.js';
import { createCanvas, type Rgb } from './dsl/png.js';
import { grepLines, lineOf, lines, type Project } from './dsl/project.js';
import type { SampleSession } from './dsl/sample.js';
import { bashTool, editTool, grepTool, readTool, writeTool, type ToolCall } from './dsl/tool-calls.js';
import { call, createTranscript, text, thinking, tool, type Transcript, type TranscriptOptions } from './dsl/transcript.js';
import { FAIR_SHARE_CWD, FAIR_SHARE_SOURCES, fairShareAfterSettle } from './projects/fair-share.js';

/** What the main transcript and its agents share. */
type Base = Pick<TranscriptOptions, 'ids' | 'sessionId' | 'cwd' | 'version' | 'gitBranch'>;

/** The second fair-share session. The order of the steps is the order of the ids they draw. */
export function balanceBarsSample(): SampleSession {
  const ids = createIds(0xba125);
  const sessionId = ids.uuid();
  const project = fairShareAfterSettle();
  const base: Base = {
    ids,
    sessionId,
    cwd: FAIR_SHARE_CWD,
    version: '2.1.42',
    gitBranch: 'feature/balance-bars',
  };
  const subagentDir = `-home-demo-projects-fair-share/${sessionId}/subagents`;
  const start = '2026-02-04T09:05:12.604Z';

  const warmup = warmupAgent(base, start);
  const t = createTranscript({ ...base, model: 'claude-opus-4-6', start, slug: 'bright-sketching-otter' });
  t.wait(38);
  const sketchPrompt = promptWithSketch(t);
  const { taskId, agentId, agent } = delegateSurvey(t, base, project);
  searchBlockCharacters(t, ids);
  fetchBlockCharacters(t);
  drawBars(t, project);
  const queuedPrompt = respectNoColor(t, project);

  return {
    title: 'Balance bars',
    files: [
      { path: `-home-demo-projects-fair-share/${sessionId}.jsonl`, lines: t.lines },
      { path: `${subagentDir}/agent-${agentId}.jsonl`, lines: agent.lines },
      { path: `${subagentDir}/agent-${warmup.agentId}.jsonl`, lines: warmup.transcript.lines },
    ],
    landmarks: { sessionId, sketchPrompt, taskToolUseId: taskId, agentId, warmupAgentId: warmup.agentId, queuedPrompt },
  };
}

/** Claude Code warms up its Explore agent at startup; the file is noise, not a transcript. */
function warmupAgent(base: Base, start: string): { agentId: string; transcript: Transcript } {
  const agentId = `a${base.ids.hex(6)}`;
  const transcript = createTranscript({ ...base, agentId, model: 'claude-haiku-4-5-20251001', start });
  transcript.prompt('Warmup');
  transcript.assistant([
    text(
      "I'm ready to help you explore this codebase. I can search files, read code and trace how things fit together. What would you like me to look into?",
    ),
  ]);
  return { agentId, transcript };
}

/** The first prompt: the pasted sketch and the request. Returns its uuid. */
function promptWithSketch(t: Transcript): string {
  return t.prompt([
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: balanceSketchPng() } },
    {
      type: 'text',
      text: "Here's a quick sketch of what I'd like `fair-share balances` to show: one bar per person, green for people who are owed money and red for people who owe.\n\n[Image #1]\n\nWhat's the nicest way to draw bars like that in a terminal? Then go ahead and build it.",
    },
  ]);
}

/** The main agent hands the code survey to an Explore subagent and waits for its report. */
function delegateSurvey(t: Transcript, base: Base, project: Project): { taskId: string; agentId: string; agent: Transcript } {
  const surveyPrompt =
    'In /home/demo/projects/fair-share, find every place that prints balances or amounts to the terminal. For each, give file:line, what it prints, and whether colour or terminal width is handled anywhere. Also list the runtime dependencies in package.json. Report only; do not change any files.';
  const taskCall: ToolCall = {
    name: 'Task',
    input: { description: 'Map how balances are printed', prompt: surveyPrompt, subagent_type: 'Explore' },
    content: '',
    result: null,
  };
  const delegate = t.assistant([
    thinking(
      'The sketch shows horizontal bars, one row per person, left-aligned, green and red. Two questions: how output is produced today (an Explore agent can map that) and which characters give smooth bars. Unicode has eighth-width block elements; worth confirming the exact code points.',
    ),
    text(
      "Nice sketch! I'll have an Explore agent map how balances are printed today, then look up which block characters give bars with smooth ends.",
    ),
    tool(taskCall),
  ]);
  const taskId = delegate.toolIds[0]!;
  const { agentId, agent, report } = surveyAgent(base, project, surveyPrompt, t.now());
  const agentStart = Date.parse(String(agent.lines[0]!.timestamp));
  const agentMs = Date.parse(agent.now()) - agentStart;
  const agentUsage: JsonObject = {
    input_tokens: 6,
    cache_creation_input_tokens: 1184,
    cache_read_input_tokens: 17_950,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 1184 },
    output_tokens: 412,
    service_tier: 'standard',
  };
  taskCall.content = [
    { type: 'text', text: report },
    { type: 'text', text: `agentId: ${agentId} (for resuming to continue this agent's work if needed)` },
  ];
  taskCall.result = {
    status: 'completed',
    prompt: surveyPrompt,
    agentId,
    content: [{ type: 'text', text: report }],
    totalDurationMs: agentMs,
    totalTokens: 19_552,
    totalToolUseCount: 3,
    usage: agentUsage,
  };
  t.wait(agentMs / 1000);
  t.result(taskId, { seconds: 0.3 });
  return { taskId, agentId, agent };
}

/** The Explore agent's own transcript: three tool calls, then its report. */
function surveyAgent(base: Base, project: Project, surveyPrompt: string, start: string): { agentId: string; agent: Transcript; report: string } {
  const agentId = `a${base.ids.hex(6)}`;
  const agent = createTranscript({ ...base, agentId, model: 'claude-haiku-4-5-20251001', start });
  agent.wait(0.1);
  agent.prompt(surveyPrompt);
  const outputPattern = /console\.(log|error)|process\.stdout/;
  call(agent, [
    text("I'll start by finding every output call in src/."),
    tool(grepTool('console\\.(log|error)|process\\.stdout', 'src', grepLines(project, FAIR_SHARE_SOURCES, outputPattern))),
  ]);
  call(agent, [tool(readTool(project, 'src/format.ts'))]);
  call(agent, [tool(readTool(project, 'package.json'))]);
  const cli = project.read('src/cli.ts');
  const report = lines(
    '## Where amounts reach the terminal',
    '',
    `- \`src/cli.ts:${lineOf(cli, 'person.padEnd(8)')}\`: the \`balances\` case prints one line per person: the name padded to 8 characters, then \`formatCents(cents)\` right-aligned in 8.`,
    `- \`src/cli.ts:${lineOf(cli, 'JSON.stringify(payments')}\` and \`:${lineOf(cli, '${p.from} → ${p.to}')}\`: the \`settle\` case prints JSON with \`--json\`, otherwise one \`from → to: amount\` line per payment.`,
    `- \`src/cli.ts:${lineOf(cli, 'console.error(USAGE)')}\` and \`:${lineOf(cli, 'unknown command')}\`: usage errors, to stderr.`,
    '- `src/format.ts:2`: `formatCents` is the only formatting helper.',
    '',
    '**Colour and width:** not handled anywhere. There is no colour code, no `isTTY` check and no terminal-width lookup.',
    '',
    '**Dependencies:** none at runtime. Dev only: `typescript`, `tsx`, `vitest`, `@types/node`. Colour support would have to be hand-rolled or become the first runtime dependency.',
  );
  agent.assistant([text(report)]);
  return { agentId, agent, report };
}

/** A web search for the block characters, with its two progress entries. */
function searchBlockCharacters(t: Transcript, ids: Ids): void {
  const query = 'unicode block elements eighth blocks horizontal bar chart terminal';
  const links = [
    { title: 'Block Elements - Wikipedia', url: 'https://en.wikipedia.org/wiki/Block_Elements' },
    { title: 'Block Elements, Range: 2580–259F (Unicode code chart)', url: 'https://www.unicode.org/charts/PDF/U2580.pdf' },
    { title: 'NO_COLOR: disabling ANSI color output by default', url: 'https://no-color.org/' },
  ];
  const searchSummary =
    'The Block Elements range (U+2580–U+259F) has left-aligned blocks in eighths, from U+258F (one eighth) to U+2588 (full block). Terminal bar charts use full blocks for whole cells and one partial block for the remainder, which gives eight steps of resolution per character cell.';
  const serverId = ids.serverToolUseId();
  const search = t.assistant([
    text('No runtime dependencies and no colour handling yet, so I\'ll hand-roll it. First, which characters give the smoothest bars:'),
    tool({
      name: 'WebSearch',
      input: { query },
      content: `Web search results for query: "${query}"\n\nLinks: ${JSON.stringify(links)}\n\n${searchSummary}`,
      result: { query, results: [{ tool_use_id: serverId, content: links }, searchSummary], durationSeconds: 6.412 },
    }),
  ]);
  const searchId = search.toolIds[0]!;
  t.progress({ type: 'query_update', query }, 'search-progress-1', searchId, 1.2);
  t.progress({ type: 'search_results_received', resultCount: links.length, query }, serverId, searchId, 2.6);
  t.result(searchId, { seconds: 2.7 });
}

/** A fetch of the page that lists the block characters. */
function fetchBlockCharacters(t: Transcript): void {
  const fetched = lines(
    'The left-aligned partial blocks, thinnest first:',
    '',
    '| Character | Code point | Name |',
    '|---|---|---|',
    '| ▏ | U+258F | Left one eighth block |',
    '| ▎ | U+258E | Left one quarter block |',
    '| ▍ | U+258D | Left three eighths block |',
    '| ▌ | U+258C | Left half block |',
    '| ▋ | U+258B | Left five eighths block |',
    '| ▊ | U+258A | Left three quarters block |',
    '| ▉ | U+2589 | Left seven eighths block |',
    '| █ | U+2588 | Full block |',
    '',
    'All of them are in the Block Elements block (U+2580–U+259F), which common monospace terminal fonts cover.',
  );
  call(t, [
    tool({
      name: 'WebFetch',
      input: {
        url: 'https://en.wikipedia.org/wiki/Block_Elements',
        prompt: 'List the left-aligned partial block characters with their code points, from one eighth up to the full block.',
      },
      content: fetched,
      result: { bytes: 84_213, code: 200, codeText: 'OK', result: fetched, durationMs: 3_904, url: 'https://en.wikipedia.org/wiki/Block_Elements' },
    }),
  ], [4.3]);
}

/** `src/bars.ts`, the CLI change, a run while the user queues a follow-up, and the report. */
function drawBars(t: Transcript, project: Project): void {
  call(t, [
    text(
      'Eighth blocks it is: a full block per whole cell plus one partial block for the rest, so the bar for 7.30 still looks different from the bar for 6.90. Colour goes in a separate helper so it can be switched off.',
    ),
    tool(writeTool(project, 'src/bars.ts', BARS_TS)),
  ]);
  call(t, [tool(editTool(project, 'src/cli.ts', ...CLI_IMPORT_BARS))]);
  call(t, [
    text('The largest balance fills the full width; everything else is scaled against it.'),
    tool(editTool(project, 'src/cli.ts', ...CLI_BALANCE_BARS)),
  ]);
  const run = t.assistant([
    tool(
      bashTool('FORCE_COLOR=1 npx tsx src/cli.ts balances examples/trip.ledger', balancesOutput(true), {
        description: 'Show the new balance bars',
        newer: true,
      }),
    ),
  ]);
  // The user types a follow-up while Claude is still working; it waits in the queue.
  t.queue('enqueue', FOLLOW_UP);
  t.result(run.toolIds[0]!, { seconds: 1.5 });
  t.assistant([
    text(
      lines(
        'Here it is on the example trip (green: owed money, red: owes money):',
        '',
        '```console',
        '$ npx tsx src/cli.ts balances examples/trip.ledger',
        'ana         67.90  ████████████████████████',
        'ben          7.30  ██▋',
        'chen       -51.73  ██████████████████▎',
        'dee        -23.47  ████████▎',
        '```',
        '',
        '- **`src/bars.ts`** (new): `bar(value, max, width = 24)` draws full blocks plus one eighth-width block for the remainder; `paint()` adds the colour.',
        "- **`src/cli.ts`**: `balances` scales every bar against the largest balance. Colour is on for a real terminal, or when `FORCE_COLOR` is set, which is how I ran it above since my shell isn't a TTY.",
      ),
    ),
  ]);
  t.turnDone();
}

/** The queued prompt, taken off the queue once the turn ended. Returns its uuid. */
function respectNoColor(t: Transcript, project: Project): string {
  t.queue('dequeue');
  const queuedPrompt = t.prompt(FOLLOW_UP);
  call(t, [
    text(
      'Good call. The convention at no-color.org is that a non-empty `NO_COLOR` turns colour off, whatever else is set, so it goes first in the check:',
    ),
    tool(editTool(project, 'src/cli.ts', ...CLI_NO_COLOR)),
  ]);
  call(t, [
    tool(
      bashTool('NO_COLOR=1 npx tsx src/cli.ts balances examples/trip.ledger', balancesOutput(false), {
        description: 'Check the output with NO_COLOR set',
        newer: true,
      }),
    ),
  ], [1.4]);
  t.assistant([
    text(
      "`NO_COLOR` now wins over `FORCE_COLOR` and over the TTY check, so your CI logs get plain text. The bars themselves stay: they're ordinary characters, not escape codes, so they read fine in a log too.",
    ),
  ]);
  t.turnDone();
  return queuedPrompt;
}

// ---------------------------------------------------------------------------
// What Claude writes in this session

const BARS_TS = `// Eighth-width blocks let a bar end partway through a cell, so small amounts still show.
const PARTIAL = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A horizontal bar for \`value\`, scaled so that \`max\` fills \`width\` terminal cells. */
export function bar(value: number, max: number, width = 24): string {
  if (max <= 0) return '';
  const eighths = Math.round((Math.min(Math.abs(value), max) / max) * width * 8);
  return '█'.repeat(Math.floor(eighths / 8)) + PARTIAL[eighths % 8];
}

/** Wraps text in a foreground colour; plain text when colour is off. */
export function paint(text: string, colour: 'green' | 'red', enabled: boolean): string {
  if (!enabled) return text;
  return \`\\u001b[\${colour === 'green' ? 32 : 31}m\${text}\\u001b[39m\`;
}
`;

const CLI_IMPORT_BARS: [string, string] = [
  "import { balances } from './balances.js';\n",
  "import { balances } from './balances.js';\nimport { bar, paint } from './bars.js';\n",
];

const CLI_BALANCE_BARS: [string, string] = [
  lines(
    "    case 'balances': {",
    '      for (const [person, cents] of balances(expenses)) {',
    '        console.log(`${person.padEnd(8)} ${formatCents(cents).padStart(8)}`);',
    '      }',
    '      return 0;',
    '    }',
  ),
  lines(
    "    case 'balances': {",
    '      const net = balances(expenses);',
    '      const largest = Math.max(...[...net.values()].map(Math.abs));',
    '      const useColour = process.env.FORCE_COLOR !== undefined || process.stdout.isTTY === true;',
    '      for (const [person, cents] of net) {',
    "        const drawn = paint(bar(cents, largest), cents < 0 ? 'red' : 'green', useColour);",
    '        console.log(`${person.padEnd(8)} ${formatCents(cents).padStart(8)}  ${drawn}`);',
    '      }',
    '      return 0;',
    '    }',
  ),
];

const CLI_NO_COLOR: [string, string] = [
  '      const useColour = process.env.FORCE_COLOR !== undefined || process.stdout.isTTY === true;',
  '      const useColour = !process.env.NO_COLOR && (process.env.FORCE_COLOR !== undefined || process.stdout.isTTY === true);',
];

/** Typed while Claude is still drawing the bars. */
const FOLLOW_UP = "Also, please respect NO_COLOR. I set it in CI and the logs fill up with escape codes otherwise.";

/** `fair-share balances` on the example trip; the bars match the pasted sketch. */
function balancesOutput(colour: boolean): string {
  const rows: Array<[string, string, string, 32 | 31]> = [
    ['ana     ', '   67.90', '████████████████████████', 32],
    ['ben     ', '    7.30', '██▋', 32],
    ['chen    ', '  -51.73', '██████████████████▎', 31],
    ['dee     ', '  -23.47', '████████▎', 31],
  ];
  return rows
    .map(([name, amount, drawn, code]) => `${name} ${amount}  ${colour ? `\u001b[${code}m${drawn}\u001b[39m` : drawn}`)
    .join('\n');
}

/** The pasted sketch, 32×32: per person a grey name stub, then a green (owed) or red (owes) bar. */
function balanceSketchPng(): string {
  const canvas = createCanvas(32);
  const rows: Array<[number, Rgb]> = [
    [24, [46, 160, 67]],
    [3, [46, 160, 67]],
    [18, [207, 34, 46]],
    [8, [207, 34, 46]],
  ];
  rows.forEach(([length, colour], i) => {
    const top = 4 + i * 7;
    canvas.fill(1, top + 1, 3, 2, [150, 150, 150]);
    canvas.fill(6, top, length, 4, colour);
  });
  canvas.fill(5, 2, 1, 28, [90, 90, 90]); // the axis
  return canvas.toBase64();
}
