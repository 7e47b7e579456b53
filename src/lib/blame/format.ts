/**
 * The three ways blame prints: `text` (like `git blame`: the prompt's number
 * and a short call id in the gutter, then a legend of the calls), `json` (the
 * whole report) and `agent-trace` (one Agent Trace 0.1 record). Pure.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { CallRef } from './calls.js';
import type { Author, BlameFile, BlameReport } from './blame.js';

/** A call's short id: its `tool_use` id without the `toolu_01` every Claude call id starts with, 8 characters. */
export function shortCallId(id: string): string {
  return id.replace(/^toolu_(?:[a-z]+_)?01(?=.)/, '').slice(0, 8);
}

/** What wrote a line, in words: `prompt 2 · Edit · subagent Explore`, `prompt 3 · Bash (command)`, `a person or unknown`. */
export function describeAuthor(a: Author): string {
  if (a.type === 'person') return 'a person or unknown';
  return [a.call.prompt ? `prompt ${a.call.prompt.index}` : 'no prompt', a.type === 'command' ? `${a.call.tool} (command)` : a.call.tool, agentLabel(a.call)].filter(Boolean).join(' · ');
}

/** The agent of a call, unless it is the session itself. */
export function agentLabel(c: CallRef): string {
  if (c.agent.kind === 'main') return '';
  const kind = c.agent.kind === 'workflow' ? 'workflow agent' : c.agent.kind;
  return c.agent.name ? `${kind} ${c.agent.name}` : kind;
}

const FILE_KIND: Record<Exclude<BlameFile['kind'], 'text'>, string> = {
  binary: 'binary file, not blamed line by line',
  renamed: 'renamed, not blamed line by line',
  generated: 'generated file, not blamed line by line',
  lockfile: 'lockfile, not blamed line by line',
  session: 'a session file of this pull request',
  deleted: 'deleted',
};

/** Why a file is only listed, in words. */
export function fileKindText(kind: BlameFile['kind']): string {
  return kind === 'text' ? '' : FILE_KIND[kind];
}

/** `git blame`-like text: per file, each added line with its gutter, then the calls named in the gutters. */
export function formatText(report: BlameReport): string {
  const out: string[] = [];
  const calls = new Map<string, { author: Extract<Author, { type: 'tool' | 'command' }>; lines: number }>();
  for (const f of report.files) {
    if (f.kind !== 'text') {
      out.push(`${f.path}${f.oldPath ? ` (from ${f.oldPath})` : ''}: ${fileKindText(f.kind)}${f.added ? ` (${f.added} added line${f.added === 1 ? '' : 's'})` : ''}`, '');
      continue;
    }
    if (!f.lines.length) continue;
    out.push(f.path);
    const width = String(f.lines[f.lines.length - 1].line).length;
    for (const l of f.lines) {
      const a = l.author;
      let gutter: string;
      if (a.type === 'person') gutter = 'person       ';
      else {
        gutter = `${a.type === 'command' ? '$' : 'p'}${String(a.call.prompt?.index ?? '-').padEnd(3)} ${shortCallId(a.call.id).padEnd(8)}`;
        const c = calls.get(a.call.id);
        if (c) c.lines++;
        else calls.set(a.call.id, { author: a, lines: 1 });
      }
      out.push(`  ${gutter} ${String(l.line).padStart(width)}) ${l.text}`);
    }
    out.push('');
  }
  if (calls.size) {
    out.push('Calls:');
    for (const [id, { author, lines }] of calls) {
      const p = author.call.prompt;
      out.push(`  ${shortCallId(id).padEnd(8)} ${describeAuthor(author)}${p ? ` "${p.text}"` : ''}${author.call.model ? ` · ${author.call.model}` : ''} · ${lines} line${lines === 1 ? '' : 's'}`);
      out.push(`           ${author.url}`);
    }
    out.push('');
  }
  const total = report.files.reduce((n, f) => n + f.lines.length, 0);
  const byTool = report.files.reduce((n, f) => n + f.lines.filter((l) => l.author.type !== 'person').length, 0);
  out.push(`${byTool} of ${total} added line${total === 1 ? '' : 's'} written by tool calls or commands of ${report.sessions.length} session${report.sessions.length === 1 ? '' : 's'}; the rest by a person or unknown.`);
  return out.join('\n');
}

/** The whole report as JSON. */
export function formatJson(report: BlameReport): string {
  return JSON.stringify(report, null, 2);
}

/** A range's `content_hash`: sha256 of its lines as the head has them, `\n`-joined. */
export function contentHash(lines: string[]): string {
  return `sha256:${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)}`;
}

/**
 * One Agent Trace record (version 0.1): per file, one conversation per call,
 * with the call's permalink as `url` (absolute when `site` is set, else the
 * site-relative path), `contributor.type` `ai` with the model, and `ranges`
 * of consecutive head lines, each with a `content_hash` taken over the head's
 * real lines (`rawLines`), so other tools can find them again. Lines no call
 * explains are claimed by no conversation: they are listed in `metadata`, as
 * are the files blame only lists (binary, renamed, generated, lockfiles) and
 * which calls were commands.
 */
export function formatAgentTrace(report: BlameReport, options: { version: string; rawLines?: (path: string, line: number) => string | undefined; now?: Date; id?: string }): Record<string, unknown> {
  const files: unknown[] = [];
  const commands: string[] = [];
  const unattributed: Array<{ path: string; ranges: Array<{ start_line: number; end_line: number }> }> = [];
  for (const f of report.files) {
    if (f.kind !== 'text' || !f.lines.length) continue;
    const groups = new Map<string, { author: Author; lines: number[] }>();
    for (const l of f.lines) {
      const key = l.author.type === 'person' ? '' : l.author.call.id;
      const g = groups.get(key);
      if (g) g.lines.push(l.line);
      else groups.set(key, { author: l.author, lines: [l.line] });
    }
    const conversations: unknown[] = [];
    for (const { author, lines } of groups.values()) {
      const ranges = runsOf(lines);
      if (author.type === 'person') {
        unattributed.push({ path: f.path, ranges });
        continue;
      }
      for (const r of ranges as Array<{ start_line: number; end_line: number; content_hash?: string }>) {
        const text: string[] = [];
        for (let n = r.start_line; n <= r.end_line; n++) text.push(options.rawLines?.(f.path, n) ?? f.lines.find((l) => l.line === n)?.text ?? '');
        r.content_hash = contentHash(text);
      }
      if (author.type === 'command') commands.push(author.call.id);
      conversations.push({
        url: author.url,
        contributor: { type: 'ai', ...(author.call.model ? { model_id: modelId(author.call.model) } : {}) },
        ranges,
        related: [{ type: 'session', url: report.sessions[author.session].url }],
      });
    }
    if (conversations.length) files.push({ path: f.path, conversations });
  }
  const listed = report.files.filter((f) => f.kind !== 'text').map((f) => ({ path: f.path, reason: f.kind }));
  return {
    version: '0.1',
    id: options.id ?? randomUUID(),
    timestamp: (options.now ?? new Date()).toISOString(),
    vcs: { type: 'git', revision: report.head },
    tool: { name: 'sessionpress', version: options.version },
    files,
    metadata: {
      'dev.sessionpress': {
        base: report.base,
        merge_base: report.mergeBase,
        sessions: report.sessions.map((s) => ({ id: s.id, url: s.url })),
        ...(commands.length ? { command_calls: [...new Set(commands)] } : {}),
        ...(unattributed.length ? { unattributed } : {}),
        ...(listed.length ? { not_attributed: listed } : {}),
      },
    },
  };
}

/** Runs of consecutive line numbers as ranges. */
function runsOf(lines: number[]): Array<{ start_line: number; end_line: number }> {
  const ranges: Array<{ start_line: number; end_line: number }> = [];
  for (const n of lines) {
    const last = ranges[ranges.length - 1];
    if (last && last.end_line === n - 1) last.end_line = n;
    else ranges.push({ start_line: n, end_line: n });
  }
  return ranges;
}

/** A model id in the models.dev form Agent Trace asks for: `anthropic/claude-…` unless it names its provider. */
function modelId(model: string): string {
  return model.includes('/') ? model : `anthropic/${model}`;
}
