/**
 * Sample 1, fair-share on Claude Code 2.1.x: "Add a settle command that works
 * in integer cents". A tour with parallel tool calls, a rewind (an abandoned
 * first try), a feature built with TodoWrite, a failing typecheck, coloured
 * test output, a /compact, one more turn after it, and a summary title.
 */
import { createIds } from './dsl/ids.js';
import { grepLines, lineOf, lines, type Project } from './dsl/project.js';
import type { SampleSession } from './dsl/sample.js';
import { bashTool, createTodos, editTool, grepTool, readTool, writeTool, type Todos } from './dsl/tool-calls.js';
import { call, createTranscript, text, thinking, tool, type AssistantMessage, type Transcript } from './dsl/transcript.js';
import {
  CLI_IMPORT_SETTLE,
  CLI_SETTLE_CASE,
  CLI_SETTLE_FIX,
  CLI_SETTLE_JSON,
  FAIR_SHARE_CWD,
  FAIR_SHARE_SOURCES,
  fairShareProject,
  SETTLE_TEST_TS,
  SETTLE_TS,
} from './projects/fair-share.js';

/** The first fair-share session. The order of the steps is the order of the ids they draw. */
export function settleInCentsSample(): SampleSession {
  const ids = createIds(0x5e771e);
  const sessionId = ids.uuid();
  const project = fairShareProject();
  const t = createTranscript({
    ids,
    sessionId,
    cwd: FAIR_SHARE_CWD,
    version: '2.1.42',
    gitBranch: 'main',
    model: 'claude-opus-4-6',
    start: '2026-02-03T08:12:40.118Z',
    slug: 'steady-counting-heron',
  });

  const forkPoint = giveTour(t, project);
  const abandonedPrompt = abandonedAttempt(t);
  const activePrompt = addSettle(t, project, forkPoint);
  compactConversation(t);
  const final = addJsonFlag(t, project);

  const title = 'Add a settle command that works in integer cents';
  t.lines.unshift({ type: 'summary', summary: title, leafUuid: final.last });
  return {
    title,
    files: [{ path: `-home-demo-projects-fair-share/${sessionId}.jsonl`, lines: t.lines }],
    landmarks: { sessionId, abandonedPrompt, activePrompt, summaryLeaf: final.last },
  };
}

/** Turn 1: a tour of the code, with two tool calls in parallel. Returns the turn's last entry. */
function giveTour(t: Transcript, project: Project): string {
  t.prompt(
    "I'm picking fair-share up again after a few months. Can you give me a quick tour: where do the CLI commands live, and how does a ledger file get parsed?",
  );
  const tour = t.assistant([
    thinking(
      'A tour of a small TypeScript CLI. The entry point is probably src/cli.ts. I can read it and list the exported functions across src/ at the same time, then read whichever file does the parsing.',
    ),
    text("I'll read the CLI entry point and list the exported functions at the same time."),
    tool(grepTool('^export (async )?function', 'src', grepLines(project, FAIR_SHARE_SOURCES, /^export (async )?function/))),
    tool(readTool(project, 'src/cli.ts')),
  ]);
  // Results land out of order, each under its own tool_use entry; the reply follows the last one.
  t.result(tour.toolIds[1]!, { seconds: 0.6 });
  t.result(tour.toolIds[0]!, { seconds: 0.3 });
  call(t, [text('The parsing is all in `src/ledger.ts`:'), tool(readTool(project, 'src/ledger.ts'))]);
  t.assistant([
    text(
      lines(
        "Here's the lay of the land.",
        '',
        "**Commands** live in `src/cli.ts`: one `main(argv)` with a `switch` on the command name. Today there's a single command, `balances`, which prints each person's net balance.",
        '',
        '**Parsing** happens in `src/ledger.ts`:',
        '',
        '1. `loadLedger(path)` reads the file and hands the text to `parseLedger`.',
        '2. `parseLedger` goes line by line, keeps anything after `#` as the expense\'s `note`, and splits the rest on whitespace into payer, amount and a comma-separated list of people. A malformed line throws with its line number.',
        '3. `toCents` turns the amount into integer cents with a regex, so `42.5` becomes `4250` without ever passing through a float.',
        '',
        "**Money maths** is in `src/balances.ts`: each expense credits the payer and debits everyone in the split. When an amount doesn't divide evenly, the first people in the list absorb the leftover cents, so balances always add up to exactly zero (`test/ledger.test.ts` checks that).",
        '',
        '| File | Role |',
        '|------|------|',
        '| `src/cli.ts` | arguments, one `case` per command |',
        '| `src/ledger.ts` | ledger text → `Expense[]` |',
        '| `src/balances.ts` | `Expense[]` → net cents per person |',
        '| `src/format.ts` | cents → `"42.50"` |',
      ),
    ),
  ]);
  return t.turnDone();
}

/** Turn 2, first try: a terse prompt the user later rewinds and rewrites. Returns the prompt. */
function abandonedAttempt(t: Transcript): string {
  t.wait(74);
  const abandonedPrompt = t.prompt('Add a settle command.');
  t.assistant([
    thinking(
      'Settle means: who pays whom. I could turn the balances into dollars, pair debtors with creditors and round each payment to two decimals.',
    ),
    text(
      "Sure! I'll add a `settle` command that converts each balance to dollars, pairs the people who owe with the people who are owed, and rounds every payment to two decimals. Shall I go ahead?",
    ),
  ]);
  t.turnDone();
  return abandonedPrompt;
}

/** Turn 2 again, after the user went back and edited the prompt: same parent, new branch. Returns the prompt. */
function addSettle(t: Transcript, project: Project, forkPoint: string): string {
  t.wait(41);
  t.head = forkPoint;
  const activePrompt = t.prompt(
    'Add a `settle` command that prints the payments needed to even everyone out: who pays whom, and how much. Keep everything in integer cents end to end (I got bitten by 0.1 + 0.2 after the last trip). Tests please.',
  );
  const todos = createTodos([
    ['Write settle() in src/settle.ts', 'Writing settle()'],
    ['Add a settle command to the CLI', 'Adding the settle command'],
    ['Test settle(), including uneven splits', 'Testing settle()'],
    ['Typecheck and run the test suite', 'Typechecking and running the tests'],
  ]);
  writeSettle(t, project, todos);
  addToCli(t, project, todos);
  testSettle(t, project, todos);
  reportSettle(t);
  return activePrompt;
}

/** The plan as a todo list, then `src/settle.ts`. */
function writeSettle(t: Transcript, project: Project, todos: Todos): void {
  call(t, [
    thinking(
      'Balances are already integer cents that sum to zero, so settling is a matching problem on top of them. Greedy works well: the largest debtor pays the largest creditor until one of them is square. That needs at most n - 1 payments. The true minimum is a subset-sum style problem and not worth it for a trip ledger. Ties should be broken by name so the output is stable.',
    ),
    text(
      "Balances are already integer cents and always sum to zero, so settling is just a matching step on top of them. Here's the plan:",
    ),
    tool(todos.start()),
  ]);
  call(t, [
    text(
      'Greedy matching: the largest debtor pays the largest creditor until one of them is square. That needs at most n − 1 payments and never leaves integers.',
    ),
    tool(writeTool(project, 'src/settle.ts', SETTLE_TS)),
  ]);
}

/** The CLI edits, a failing typecheck and its fix. */
function addToCli(t: Transcript, project: Project, todos: Todos): void {
  call(t, [tool(todos.step(1))]);
  call(t, [text('Now the CLI: an import and a usage line first, then the new `case`.'), tool(editTool(project, 'src/cli.ts', ...CLI_IMPORT_SETTLE))]);
  call(t, [tool(editTool(project, 'src/cli.ts', ...CLI_SETTLE_CASE))]);
  const cli = project.read('src/cli.ts');
  const errorLine = lineOf(cli, 'formatCents(p.amount)');
  const errorColumn = cli.split('\n')[errorLine - 1]!.indexOf('p.amount)') + 3;
  call(t, [
    text('Typechecking before I write the tests:'),
    tool(
      bashTool(
        'npx tsc --noEmit',
        `src/cli.ts(${errorLine},${errorColumn}): error TS2339: Property 'amount' does not exist on type 'Payment'.`,
        { description: 'Typecheck the project', exitCode: 2, newer: true },
      ),
    ),
  ], [4.1]);
  call(t, [
    text("My slip: the field is called `amountCents`, to match the rest of the code."),
    tool(editTool(project, 'src/cli.ts', ...CLI_SETTLE_FIX)),
  ]);
}

/** The tests, a run with a progress entry, and a check on the example ledger. */
function testSettle(t: Transcript, project: Project, todos: Todos): void {
  call(t, [tool(todos.step(2))]);
  call(t, [
    text(
      'Tests next. Besides the basics, they pin down the two things you care about: `0.10 + 0.20` must come out as exactly `0.30`, and an amount split three ways must not lose a cent.',
    ),
    tool(writeTool(project, 'test/settle.test.ts', SETTLE_TEST_TS)),
  ]);
  call(t, [tool(todos.step(3))]);
  const testRun = t.assistant([
    tool(
      bashTool('npx tsc --noEmit && FORCE_COLOR=1 npx vitest run', vitestOutput(localClock(t.now())), {
        description: 'Typecheck, then run the test suite',
        newer: true,
      }),
    ),
  ]);
  const testId = testRun.toolIds[0]!;
  t.progress(
    { type: 'bash_progress', output: ' ✓ test/settle.test.ts (5 tests) 9ms', fullOutput: ' ✓ test/settle.test.ts (5 tests) 9ms', elapsedTimeSeconds: 3, totalLines: 1 },
    'bash-progress-0',
    testId,
    3,
  );
  t.result(testId, { seconds: 1.2 });
  call(t, [
    text('All 9 tests pass. A last check on the example ledger:'),
    tool(
      bashTool(
        'npx tsx src/cli.ts settle examples/trip.ledger',
        lines('chen → ana: 51.73', 'dee → ana: 16.17', 'dee → ben: 7.30'),
        { description: 'Settle the example trip', newer: true },
      ),
    ),
  ], [1.4]);
  call(t, [tool(todos.step(4))]);
}

function reportSettle(t: Transcript): void {
  t.assistant([
    text(
      lines(
        '`fair-share settle` is in. On the example trip it prints:',
        '',
        '```console',
        '$ npx tsx src/cli.ts settle examples/trip.ledger',
        'chen → ana: 51.73',
        'dee → ana: 16.17',
        'dee → ben: 7.30',
        '```',
        '',
        'What changed:',
        '',
        '- **`src/settle.ts`** (new): `settle(net)` lets the largest debtor pay the largest creditor until everyone is square. At most n − 1 payments, ties broken by name so the output is stable.',
        '- **`src/cli.ts`**: a `settle` case next to `balances`; the usage line mentions both.',
        '- **`test/settle.test.ts`** (new): five tests, including `0.10 + 0.20` settling as exactly `0.30` and a 10.00 bill split three ways that keeps every cent.',
        '',
        'Nothing leaves integer cents: amounts are parsed straight into cents, and `formatCents` only turns them into text at the very end.',
      ),
    ),
  ]);
  t.turnDone();
}

/** The user compacts the conversation before asking for more. */
function compactConversation(t: Transcript): void {
  t.wait(312);
  t.compact(
    lines(
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.',
      '',
      'Summary:',
      '1. Primary Request and Intent:',
      '   The user came back to fair-share, a small TypeScript CLI that splits shared expenses, and asked for a tour of the code. They then asked for a `settle` command that prints the payments needed to even everyone out, computed in integer cents end to end, with tests.',
      '',
      '2. Key Technical Concepts:',
      '   - Ledger lines look like `<payer> <amount> <people>  # note`; `toCents` parses amounts straight into integer cents',
      '   - `balances()` returns net cents per person; leftover cents go to the first people in a split, so balances sum to zero',
      '   - Greedy settlement: the largest debtor pays the largest creditor, at most n − 1 payments, ties broken by name',
      '',
      '3. Files and Code Sections:',
      '   - src/settle.ts (new): `Payment { from, to, amountCents }` and `settle(net: Map<string, number>): Payment[]`',
      '   - src/cli.ts: new `settle` case; usage is now `fair-share <balances|settle> <ledger-file>`',
      '   - test/settle.test.ts (new): five tests; the suite passes 9 of 9',
      '',
      '4. Errors and fixes:',
      "   - `tsc` reported TS2339 because the CLI used `p.amount`; fixed to `p.amountCents`.",
      '',
      '5. Pending Tasks:',
      '   - None.',
      '',
      '6. Current Work:',
      '   `settle` is finished and was checked on examples/trip.ledger (chen → ana 51.73, dee → ana 16.17, dee → ben 7.30).',
    ),
    41_862,
  );
}

/** Turn 3, after compaction. Returns the session's last reply, which the summary line points at. */
function addJsonFlag(t: Transcript, project: Project): AssistantMessage {
  t.wait(25);
  t.prompt('Could `settle` also print JSON with a `--json` flag? I want to pipe it into a spreadsheet script.');
  call(t, [
    thinking('Small change. The settle case can branch on argv.includes("--json") and print the payments array as is.'),
    text("I'll branch on `--json` inside the `settle` case, so the plain output stays exactly as it is."),
    tool(readTool(project, 'src/cli.ts')),
  ]);
  call(t, [tool(editTool(project, 'src/cli.ts', ...CLI_SETTLE_JSON))]);
  call(t, [
    tool(
      bashTool(
        'npx tsx src/cli.ts settle examples/trip.ledger --json',
        JSON.stringify(
          [
            { from: 'chen', to: 'ana', amountCents: 5173 },
            { from: 'dee', to: 'ana', amountCents: 1617 },
            { from: 'dee', to: 'ben', amountCents: 730 },
          ],
          null,
          2,
        ),
        { description: 'Try the JSON output', newer: true },
      ),
    ),
  ], [1.3]);
  const final = t.assistant([
    text(
      'Done: `fair-share settle <file> --json` prints the payments as a JSON array. Amounts stay in cents (`amountCents`), so divide by 100 on the spreadsheet side rather than trusting a float in between. Without the flag the output is unchanged.',
    ),
  ]);
  t.turnDone();
  return final;
}

/** Vitest's coloured summary, as it prints when FORCE_COLOR is set. */
function vitestOutput(startedAt: string): string {
  const esc = '\u001b';
  const ok = (file: string, tests: number, ms: number) =>
    ` ${esc}[32m✓${esc}[39m ${file} ${esc}[2m(${esc}[22m${esc}[2m${tests} tests${esc}[22m${esc}[2m)${esc}[22m${esc}[32m ${ms}${esc}[2mms${esc}[22m${esc}[39m`;
  return lines(
    '',
    `${esc}[1m${esc}[30m${esc}[46m RUN ${esc}[49m${esc}[39m${esc}[22m ${esc}[36mv4.0.18 ${esc}[39m${esc}[90m${FAIR_SHARE_CWD}${esc}[39m`,
    '',
    ok('test/settle.test.ts', 5, 9),
    ok('test/ledger.test.ts', 4, 4),
    '',
    `${esc}[2m Test Files ${esc}[22m ${esc}[1m${esc}[32m2 passed${esc}[39m${esc}[22m${esc}[90m (2)${esc}[39m`,
    `${esc}[2m      Tests ${esc}[22m ${esc}[1m${esc}[32m9 passed${esc}[39m${esc}[22m${esc}[90m (9)${esc}[39m`,
    `${esc}[2m   Start at ${esc}[22m ${startedAt}`,
    `${esc}[2m   Duration ${esc}[22m 236ms${esc}[2m (transform 51%, import 23%, tests 19%, worker 7%)${esc}[22m`,
  );
}

/** Local wall-clock time (the demo user lives in UTC+1), as test runners print it. */
function localClock(iso: string): string {
  return new Date(Date.parse(iso) + 3_600_000).toISOString().slice(11, 19);
}
