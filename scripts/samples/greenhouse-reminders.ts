/**
 * Sample 3, garden-log on Claude Code 2.0.55: "Duplicate greenhouse reminders".
 * Cumulative streaming, an Explore subagent in the 2.0.x layout (its file beside
 * the session's), an MCP tool, ExitPlanMode, MultiEdit, an interrupted reply,
 * and /cost as 2.0.x records it.
 */
import { createIds } from './dsl/ids.js';
import type { Json } from './dsl/json.js';
import { lineOf, lines, type Project } from './dsl/project.js';
import type { SampleSession } from './dsl/sample.js';
import { bashTool, grepTool, multiEditTool, readTool, writeTool, type ToolCall } from './dsl/tool-calls.js';
import { call, createTranscript, text, thinking, tool, type Transcript, type TranscriptOptions } from './dsl/transcript.js';
import { GARDEN_CWD, gardenLogProject } from './projects/garden-log.js';

/** What the main transcript and its agent share. */
type Base = Pick<TranscriptOptions, 'ids' | 'sessionId' | 'cwd' | 'version' | 'gitBranch'>;

/** The garden-log session. The order of the steps is the order of the ids they draw. */
export function greenhouseRemindersSample(): SampleSession {
  const ids = createIds(0x9a2de);
  const sessionId = ids.uuid();
  const project = gardenLogProject();
  const base: Base = { ids, sessionId, cwd: GARDEN_CWD, version: '2.0.55', gitBranch: 'main' };
  const t = createTranscript({
    ...base,
    model: 'claude-sonnet-4-5-20250929',
    start: '2026-02-02T17:41:03.950Z',
    slug: 'quiet-watering-fern',
  });

  const { taskId, agentId, agent } = traceReminders(t, base, project);
  checkDatabase(t);
  planFix(t);
  fixAndTest(t, project);
  const interrupted = interruptDryRun(t);
  commitFix(t);

  return {
    title: 'Duplicate greenhouse reminders',
    files: [
      { path: `-home-demo-projects-garden-log/${sessionId}.jsonl`, lines: t.lines },
      { path: `-home-demo-projects-garden-log/agent-${agentId}.jsonl`, lines: agent.lines },
    ],
    landmarks: { sessionId, taskToolUseId: taskId, agentId, interrupted },
  };
}

/** The question, and an Explore agent that traces the reminder path. */
function traceReminders(t: Transcript, base: Base, project: Project): { taskId: string; agentId: string; agent: Transcript } {
  t.prompt(
    'Since yesterday the greenhouse plants get two watering reminders every morning, everything else gets one. Can you find out why? Plan first, please: no changes yet.',
  );
  const explorePrompt =
    'Trace how watering reminders are produced in this repo: which function decides that a plant is due, how plants are matched to zones, and where reminders are sent. Give file:line for each step. Read only.';
  const taskCall: ToolCall = {
    name: 'Task',
    input: { description: 'Trace the reminder path', prompt: explorePrompt, subagent_type: 'Explore' },
    content: '',
    result: null,
  };
  // 2.0.x wrote some replies cumulatively: each entry repeats the blocks before it.
  const delegate = t.assistant(
    [
      thinking(
        'Duplicates for one zone only. Either the morning job runs twice for that zone, or the greenhouse plants are matched twice. An Explore agent can trace the path while I look at what was actually sent.',
      ),
      text("I'll have an Explore agent trace how reminders are produced, and meanwhile check what was actually sent."),
      tool(taskCall),
    ],
    { streaming: 'cumulative' },
  );
  const taskId = delegate.toolIds[0]!;
  const { agentId, agent, report } = traceAgent(base, project, explorePrompt, t.now());
  const agentMs = Date.parse(agent.now()) - Date.parse(String(agent.lines[0]!.timestamp));
  taskCall.content = [{ type: 'text', text: report }];
  taskCall.result = {
    status: 'completed',
    prompt: explorePrompt,
    agentId,
    content: [{ type: 'text', text: report }],
    totalDurationMs: agentMs,
    totalTokens: 15_307,
    totalToolUseCount: 3,
    usage: {
      input_tokens: 5,
      cache_creation_input_tokens: 2_231,
      cache_read_input_tokens: 12_684,
      cache_creation: { ephemeral_5m_input_tokens: 2_231, ephemeral_1h_input_tokens: 0 },
      output_tokens: 387,
      service_tier: 'standard',
    },
  };
  t.wait(agentMs / 1000);
  t.result(taskId, { seconds: 0.2 });
  return { taskId, agentId, agent };
}

/** The Explore agent's own transcript: a Grep, two Reads, then its report. */
function traceAgent(base: Base, project: Project, explorePrompt: string, start: string): { agentId: string; agent: Transcript; report: string } {
  const agentId = base.ids.hex(8);
  const agent = createTranscript({ ...base, agentId, model: 'claude-haiku-4-5-20251001', start });
  agent.prompt(explorePrompt);
  const scheduler = project.read('garden_log/scheduler.py');
  const models = project.read('garden_log/models.py');
  call(agent, [
    text("I'll find where reminders are decided and sent."),
    tool(
      grepTool('due_today|send_reminder', '.', [
        'garden_log/cli.py:18:    for plant in due_today(plants, zones, date.today()):',
        'garden_log/cli.py:19:        send_reminder(plant)',
        'garden_log/notify.py:12:def send_reminder(plant: Plant) -> None:',
        `garden_log/scheduler.py:${lineOf(scheduler, 'def due_today')}:def due_today(plants: list[Plant], zones: list[Zone], today: date) -> list[Plant]:`,
        'tests/test_scheduler.py:4:from garden_log.scheduler import due_today',
      ]),
    ),
  ]);
  call(agent, [tool(readTool(project, 'garden_log/scheduler.py'))]);
  call(agent, [text('`due_today` relies on `Zone.contains`; reading the models.'), tool(readTool(project, 'garden_log/models.py'))]);
  const report = lines(
    '## How a reminder is produced',
    '',
    '1. `garden_log/cli.py:18`: the morning command calls `due_today(plants, zones, date.today())` once and sends one reminder per plant in the result (`cli.py:19`).',
    `2. \`garden_log/scheduler.py:${lineOf(scheduler, 'for zone in zones')}\`: \`due_today\` loops over **every zone**, and for each zone over every plant that \`zone.contains(plant)\`, appending each due plant to a list.`,
    `3. \`garden_log/models.py:${lineOf(models, 'def contains')}\`: \`Zone.contains\` is true for plants in the zone **or in any zone nested inside it**.`,
    '4. `garden_log/notify.py:12`: `send_reminder` stores a row in `reminders` and sends one message.',
    '',
    'So a plant in a nested zone is appended once for its own zone and once more for each zone around it. If the greenhouse was recently nested inside another zone, that would explain the duplicates.',
  );
  agent.assistant([text(report)]);
  return { agentId, agent, report };
}

/** An MCP query that confirms the duplicates. */
function checkDatabase(t: Transcript): void {
  const rows = [
    { plant_id: 7, name: 'Basil', zone: 'Greenhouse', sent: 2 },
    { plant_id: 9, name: 'Chillies', zone: 'Greenhouse', sent: 2 },
    { plant_id: 12, name: 'Tomatoes', zone: 'Greenhouse', sent: 2 },
  ];
  const rowsText: Json = [{ type: 'text', text: JSON.stringify(rows) }];
  call(t, [
    text(
      "The agent's trace points at nested zones. Let me confirm with yesterday's reminders in the database:",
    ),
    tool({
      name: 'mcp__sqlite__read_query',
      input: {
        query:
          "SELECT r.plant_id, p.name, z.name AS zone, COUNT(*) AS sent\nFROM reminders r\nJOIN plants p ON p.id = r.plant_id\nJOIN zones z ON z.id = p.zone_id\nWHERE r.sent_on = '2026-02-02'\nGROUP BY r.plant_id\nHAVING COUNT(*) > 1",
      },
      content: rowsText,
      result: rowsText,
    }),
  ], [0.9]);
}

/** The plan, approved through ExitPlanMode. */
function planFix(t: Transcript): void {
  const plan = lines(
    '## Fix duplicate greenhouse reminders',
    '',
    '**Cause:** `due_today` walks every zone, and `Zone.contains` also matches plants in nested zones. The greenhouse sits inside the backyard, so every greenhouse plant is appended twice. The database agrees: basil, chillies and tomatoes each got two reminders on 2 February, and nothing else did.',
    '',
    '**Change** (`garden_log/scheduler.py`):',
    '1. Collect due plants in a dict keyed by plant id instead of a list, so a plant counts once however many zones contain it.',
    '2. Return the dict\'s values, which keeps the order in which plants were first found.',
    '',
    '**Test:** new `tests/test_nested_zones.py`: a plant in a nested zone is due exactly once, and the order is stable.',
    '',
    '`Zone.contains` stays as it is: nested matching is what you want for per-zone totals.',
  );
  call(t, [
    tool({
      name: 'ExitPlanMode',
      input: { plan },
      content: 'User has approved your plan. You can now start coding. Start with updating your todo list if applicable',
      result: { plan, isAgent: false },
    }),
  ], [21.5]);
}

/** One MultiEdit, a new test file and a test run. */
function fixAndTest(t: Transcript, project: Project): void {
  const multiEdit = multiEditTool(project, 'garden_log/scheduler.py', [
    [
      '    due: list[Plant] = []\n',
      '    # A plant is inside its own zone and every zone around it (the greenhouse sits\n    # in the backyard), so collect by id to remind about each plant once.\n    due: dict[int, Plant] = {}\n',
    ],
    ['                due.append(plant)\n    return due\n', '                due[plant.id] = plant\n    return list(due.values())\n'],
  ]);
  call(t, [text('Plan approved. Both changes are in the same function, so one MultiEdit:'), tool(multiEdit)]);
  call(t, [tool(writeTool(project, 'tests/test_nested_zones.py', NESTED_ZONES_TEST_PY))]);
  call(t, [
    tool(
      bashTool(
        'python -m pytest -q',
        '......                                                                   [100%]\n6 passed in 0.57s',
        { description: 'Run the test suite' },
      ),
    ),
  ], [2.1]);
  t.assistant([
    text(
      lines(
        'Fixed. `due_today` now collects plants by id, so a greenhouse plant is reminded about once even though both the backyard and the greenhouse contain it. The new tests cover the nested case and the order; all 6 tests pass.',
        '',
        "Tomorrow's run should send basil, chillies and tomatoes one reminder each.",
      ),
    ),
  ]);
}

/** The user asks for more, interrupts the reply, and changes their mind. Returns the interruption's uuid. */
function interruptDryRun(t: Transcript): string {
  t.wait(95);
  t.prompt('Nice. While you are in there, can you add a `--dry-run` flag to the morning command so I can see what would be sent?');
  t.assistant([text("Sure. I'll add the flag in `garden_log/cli.py` and pass it down so that")]);
  return t.user([{ type: 'text', text: '[Request interrupted by user]' }]);
}

/** The commit instead, then /cost. */
function commitFix(t: Transcript): void {
  t.wait(12);
  t.prompt("Sorry, let's leave that for another day. Can you commit the fix instead?");
  const testLines = NESTED_ZONES_TEST_PY.split('\n').length - 1;
  const added = 3 + 2 + testLines;
  call(t, [
    tool(
      bashTool(
        'git add garden_log/scheduler.py tests/test_nested_zones.py && git commit -m "Remind about each plant once, even in nested zones"',
        `[main 4c1d2e7] Remind about each plant once, even in nested zones\n 2 files changed, ${added} insertions(+), 3 deletions(-)\n create mode 100644 tests/test_nested_zones.py`,
        { description: 'Commit the fix and its tests' },
      ),
    ),
  ], [0.8]);
  t.assistant([
    text('Committed as `4c1d2e7` on `main`. The `--dry-run` idea is noted whenever you want to pick it up.'),
  ]);
  t.wait(30);
  t.localCommand(
    'cost',
    lines(
      'Total cost:            $0.3184',
      'Total duration (API):  1m 52s',
      'Total duration (wall): 11m 37s',
      `Total code changes:    ${added} lines added, 3 lines removed`,
      'Usage by model:',
      '       claude-haiku:  18.2k input, 1.1k output, 0 cache read, 0 cache write ($0.0237)',
      '      claude-sonnet:  1.9k input, 3.4k output, 412.6k cache read, 38.5k cache write ($0.2947)',
    ),
  );
}

// ---------------------------------------------------------------------------
// What Claude writes in this session

const NESTED_ZONES_TEST_PY = `from datetime import date

from garden_log.models import Plant, Zone
from garden_log.scheduler import due_today

GREENHOUSE = Zone(3, "Greenhouse")
BACKYARD = Zone(1, "Backyard", children=[GREENHOUSE])


def test_plant_in_nested_zone_is_due_once():
    basil = Plant(7, "Basil", GREENHOUSE.id, every_days=2, last_watered=date(2026, 1, 30))
    assert due_today([basil], [BACKYARD, GREENHOUSE], date(2026, 2, 2)) == [basil]


def test_order_follows_first_zone_that_contains_the_plant():
    fern = Plant(4, "Fern", BACKYARD.id, every_days=1, last_watered=date(2026, 2, 1))
    basil = Plant(7, "Basil", GREENHOUSE.id, every_days=1, last_watered=date(2026, 2, 1))
    assert due_today([basil, fern], [BACKYARD, GREENHOUSE], date(2026, 2, 2)) == [basil, fern]
`;
