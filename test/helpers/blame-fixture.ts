/**
 * A real git repository and the Claude Code sessions that changed it, built
 * in a temporary folder for the blame tests. The recorder does to the files
 * what each tool would do and writes the session's lines as Claude Code 2.1
 * writes them (a prompt, the assistant's tool_use, the tool_result with its
 * `toolUseResult`), subagents and teammates in their own files. Sessions are
 * recorded under `cwd`, which need not be where the repository is.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Runs git in `repo` with fixed identities and the given commit time. */
export function gitIn(repo: string, args: string[], date = '2026-01-10T12:00:00Z'): string {
  return execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.invalid', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.invalid', GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_CONFIG_NOSYSTEM: '1', HOME: dirname(repo) },
  });
}

/** A new repository with `files` committed on `main`. */
export function initRepo(repo: string, files: Record<string, string | Buffer>, date?: string): void {
  mkdirSync(repo, { recursive: true });
  gitIn(repo, ['init', '-q', '-b', 'main']);
  for (const [p, c] of Object.entries(files)) put(repo, p, c);
  gitIn(repo, ['add', '-A']);
  gitIn(repo, ['commit', '-qm', 'base'], date);
}

export function put(repo: string, path: string, content: string | Buffer): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
}

export function read(repo: string, path: string): string {
  return readFileSync(join(repo, path), 'utf8');
}

let counter = 0;
const uid = (p: string) => `${p}${(++counter).toString(16).padStart(8, '0')}-0000-4000-8000-${Date.now().toString(16).padStart(12, '0').slice(-12)}`;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A call id shaped like Claude's (`toolu_01` and 22 letters and digits), distinct per call. */
const toolId = () => `toolu_01${Array.from(randomBytes(22), (b) => ALPHABET[b % ALPHABET.length]).join('')}`;

interface Options {
  /** The repository the tools change. */
  repo: string;
  /** The path the session says it ran in (another machine's checkout, say). */
  cwd: string;
  sessionId: string;
  /** First timestamp; every line is a minute later. */
  start: string;
  model?: string;
}

type Line = Record<string, unknown>;

/** One agent's lines (the session's own, or a subagent's file). */
class Stream {
  lines: Line[] = [];
  last: string | null = null;
  readonly rec: SessionRecorder;
  readonly agentId?: string;
  constructor(rec: SessionRecorder, agentId?: string) {
    this.rec = rec;
    this.agentId = agentId;
  }
  push(entry: Line): string {
    const uuid = uid('');
    this.lines.push({ ...entry, uuid, parentUuid: this.last, timestamp: this.rec.tick(), cwd: this.rec.o.cwd, sessionId: this.rec.o.sessionId, version: '2.1.30', ...(this.agentId ? { isSidechain: true, agentId: this.agentId } : { isSidechain: false }) });
    this.last = uuid;
    return uuid;
  }
}

/** What a tool call recorded: its id, to check attribution against. */
export interface Recorded {
  id: string;
}

/** Records a session while doing to the repository what its tools do. */
export class SessionRecorder {
  private time: number;
  main: Stream;
  agents: Array<{ stream: Stream; meta?: Record<string, unknown>; runId?: string }> = [];
  private current: Stream;
  /** Keep `originalFile` in Edit results (Claude Code writes it; an imported copy may not). */
  keepOriginal = true;
  /** Keep `structuredPatch` in Edit results. */
  keepPatch = true;
  readonly o: Options;
  constructor(o: Options) {
    this.o = o;
    this.time = Date.parse(o.start);
    this.main = new Stream(this);
    this.current = this.main;
  }
  tick(): string {
    this.time += 60_000;
    return new Date(this.time).toISOString();
  }
  private abs(path: string): string {
    return `${this.o.cwd}/${path}`;
  }
  prompt(text: string): void {
    this.current.push({ type: 'user', message: { role: 'user', content: text } });
  }
  /** An assistant tool_use and its result. */
  private call(name: string, input: Record<string, unknown>, result: unknown, content = 'ok'): Recorded {
    const id = toolId();
    this.current.push({ type: 'assistant', message: { id: uid('msg_'), role: 'assistant', model: this.o.model ?? 'claude-opus-4-5', type: 'message', content: [{ type: 'tool_use', id, name, input }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 10 } } });
    this.current.push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] }, toolUseResult: result });
    return { id };
  }
  write(path: string, content: string): Recorded {
    let before: string | null = null;
    try {
      before = read(this.o.repo, path);
    } catch {
      before = null;
    }
    put(this.o.repo, path, content);
    return this.call('Write', { file_path: this.abs(path), content }, { type: before === null ? 'create' : 'update', filePath: this.abs(path), content, structuredPatch: [], originalFile: before });
  }
  edit(path: string, oldString: string, newString: string, replaceAll = false): Recorded {
    const before = read(this.o.repo, path);
    if (!before.includes(oldString)) throw new Error(`fixture: ${path} has no ${JSON.stringify(oldString)}`);
    const after = replaceAll ? before.split(oldString).join(newString) : before.replace(oldString, () => newString);
    put(this.o.repo, path, after);
    // The patch's `+` lines are whole lines, as Claude Code writes them: the lines of the new file the old one lacks.
    const had = new Set(before.split('\n'));
    const result: Record<string, unknown> = { filePath: this.abs(path), oldString, newString, replaceAll, userModified: false };
    if (this.keepPatch) result.structuredPatch = [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: after.split('\n').filter((l) => !had.has(l)).map((l) => `+${l}`) }];
    if (this.keepOriginal) result.originalFile = before;
    return this.call('Edit', { file_path: this.abs(path), old_string: oldString, new_string: newString, ...(replaceAll ? { replace_all: true } : {}) }, result);
  }
  /** Inserts a code cell after the first cell of a notebook, as NotebookEdit does. */
  notebookInsert(path: string, source: string): Recorded {
    const nb = JSON.parse(read(this.o.repo, path));
    const lines = source.split('\n');
    nb.cells.splice(1, 0, { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: lines.map((l, i) => (i < lines.length - 1 ? `${l}\n` : l)) });
    put(this.o.repo, path, `${JSON.stringify(nb, null, 1)}\n`);
    return this.call('NotebookEdit', { notebook_path: this.abs(path), new_source: source, cell_type: 'code', edit_mode: 'insert' }, { new_source: source, cell_type: 'code', language: 'python', edit_mode: 'insert', error: '' });
  }
  /** A `pr-link` line: the session opened pull request `number` (a metadata line, no uuid). */
  prLink(number: number, repository: string): void {
    this.main.lines.push({ type: 'pr-link', sessionId: this.o.sessionId, prNumber: number, prUrl: `https://github.com/${repository}/pull/${number}`, prRepository: repository, timestamp: this.tick() });
  }
  /** A Read of the whole file, as the Read tool records it. */
  read(path: string): Recorded {
    const content = read(this.o.repo, path);
    const n = content.split('\n').length;
    return this.call('Read', { file_path: this.abs(path) }, { type: 'text', file: { filePath: this.abs(path), content, numLines: n, startLine: 1, totalLines: n } }, content);
  }
  /** A Bash call whose run does `effect` to the repository. */
  bash(command: string, effect: () => void): Recorded {
    effect();
    return this.call('Bash', { command, description: 'run' }, { stdout: '', stderr: '', interrupted: false }, '');
  }
  /** A subagent (or teammate, with `team`) spawned by an Agent call; `body` records its calls. */
  agent(kind: { name: string; team?: string; type?: string }, body: (r: SessionRecorder) => void): Recorded {
    const agentId = `a${(++counter).toString(16).padStart(15, '0')}`;
    const id = toolId();
    const input: Record<string, unknown> = { description: kind.name, prompt: `Please do the ${kind.name} part`, subagent_type: kind.type ?? 'general-purpose', ...(kind.team ? { team_name: kind.team, name: kind.name } : {}) };
    this.current.push({ type: 'assistant', message: { id: uid('msg_'), role: 'assistant', model: this.o.model ?? 'claude-opus-4-5', type: 'message', content: [{ type: 'tool_use', id, name: 'Agent', input }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 10 } } });
    const stream = new Stream(this, agentId);
    const outer = this.current;
    this.current = stream;
    stream.push({ type: 'user', message: { role: 'user', content: input.prompt } });
    body(this);
    this.current = outer;
    this.agents.push({ stream, meta: { agentType: input.subagent_type, description: kind.name, toolUseId: id, ...(kind.team ? { name: kind.name } : {}) } });
    const result = kind.team ? { status: 'teammate_spawned', name: kind.name, team_name: kind.team } : { status: 'completed', agentId, totalDurationMs: 1000, totalTokens: 10, totalToolUseCount: 1 };
    this.current.push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: kind.team ? 'spawned' : `done\nagentId: ${agentId}` }] }, toolUseResult: result });
    return { id };
  }
  /** A Workflow call whose run (`runId`) has one agent; `body` records the agent's calls. */
  workflow(runId: string, agentType: string, body: (r: SessionRecorder) => void): Recorded {
    const agentId = `a${(++counter).toString(16).padStart(15, '0')}`;
    const id = toolId();
    this.current.push({ type: 'assistant', message: { id: uid('msg_'), role: 'assistant', model: this.o.model ?? 'claude-opus-4-5', type: 'message', content: [{ type: 'tool_use', id, name: 'Workflow', input: { name: 'review', steps: [agentType] } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 10 } } });
    const stream = new Stream(this, agentId);
    const outer = this.current;
    this.current = stream;
    stream.push({ type: 'user', message: { role: 'user', content: `Run the ${agentType} step` } });
    body(this);
    this.current = outer;
    this.agents.push({ stream, meta: { agentType }, runId });
    this.current.push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `workflow ${runId} done` }] }, toolUseResult: { runId, status: 'completed' } });
    return { id };
  }
  /** Writes the session (and its agents' files and sidecars) under `folder/<project>/`. */
  save(folder: string, project = this.o.cwd.replace(/[^A-Za-z0-9]/g, '-')): string {
    const dir = join(folder, project);
    mkdirSync(dir, { recursive: true });
    const jsonl = (lines: Line[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    writeFileSync(join(dir, `${this.o.sessionId}.jsonl`), jsonl(this.main.lines));
    for (const a of this.agents) {
      const sub = a.runId ? join(dir, this.o.sessionId, 'subagents', 'workflows', a.runId) : join(dir, this.o.sessionId, 'subagents');
      mkdirSync(sub, { recursive: true });
      writeFileSync(join(sub, `agent-${a.stream.agentId}.jsonl`), jsonl(a.stream.lines));
      if (a.meta) writeFileSync(join(sub, `agent-${a.stream.agentId}.meta.json`), JSON.stringify(a.meta));
    }
    return dir;
  }
}
