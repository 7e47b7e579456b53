/**
 * Blame for a pull request: every line the head adds relative to the base
 * (from their merge base, as GitHub compares them), with the tool call, the
 * command or the person that wrote it. Sessions come in opened and redacted
 * (the one session module); git runs as child processes (git.ts); the rest is
 * the pure modules beside this one.
 */
import { resolve } from 'node:path';
import { createRedactor } from '../redact/redactor.js';
import type { RedactionOptions } from '../redact/types.js';
import { absoluteUrl, pagesBase, sessionUrl } from '../site/urls.js';
import type { Session } from '../transcript/types.js';
import { repoPathOf, sessionEvents, sessionRoots, type CallRef, type FileOp, type SessionEvent } from './calls.js';
import { isGenerated, isLockfile } from './classify.js';
import { parseAddedLines, parseBinaryPaths, parseNameStatus, type ChangedFile } from './diff.js';
import { commitTimes, diffOutputs, generatedByAttributes, mergeBase, readBlobs, resolveCommit } from './git.js';
import { matchLines, normalizeLine, notebookSourceLine } from './match.js';
import { replayFile, splitLines, type Claim, type FileReplay } from './replay.js';

/** A session given to blame: its model (redacted) and where its page is. */
export interface BlameSessionInput {
  session: Session;
  /** Its page's entry id, from the session's identity (`openSession`). */
  entryId: string;
  /** Why it is blamed: it belongs to the pull request (pr-link, its files), or it came from `--source`. */
  reasons: Array<'pr-link' | 'files' | 'source'>;
}

/** A session as the report names it. */
export interface BlameSession {
  id: string;
  title: string;
  projectName: string;
  /** Its page (absolute when the site's address is known). */
  url: string;
  reasons: BlameSessionInput['reasons'];
}

/** Who wrote an added line. */
export type Author =
  | { type: 'tool' | 'command'; session: number; call: CallRef; url: string }
  | { type: 'person' };

export interface BlameLine {
  /** 1-based, in the head. */
  line: number;
  /** The line's text, redacted. */
  text: string;
  author: Author;
}

export interface BlameFile {
  /** Path in the head (redacted). */
  path: string;
  oldPath?: string;
  status: ChangedFile['status'];
  /** How it is blamed: line by line (`text`), or only listed, and why. */
  kind: 'text' | 'binary' | 'renamed' | 'generated' | 'lockfile' | 'session' | 'deleted';
  /** Lines the head adds. */
  added: number;
  /** Line by line, for `text` files only. */
  lines: BlameLine[];
}

export interface BlameReport {
  base: string;
  head: string;
  mergeBase: string;
  sessions: BlameSession[];
  files: BlameFile[];
  /**
   * A line's real text in the head (by the report's path), for hashes other
   * tools recompute; a function, so the JSON of the report never holds it.
   */
  rawLine?: (path: string, line: number) => string | undefined;
}

/** Where links point: the site's address, base, prefix and page size. */
export interface LinkSettings {
  site?: string;
  base: string;
  prefix: string;
  pageSize: number;
}

export interface BlameOptions {
  /** The repository's checkout. */
  repo: string;
  base: string;
  head: string;
  /** Only these paths (repository-relative); all changed files when empty. */
  paths?: string[];
  links: LinkSettings;
  redaction: Partial<RedactionOptions>;
  /** Paths (absolute) of session folders inside the repository: files there are sessions, listed, not blamed. */
  sessionFolders?: string[];
}

/** Commands that rewrite files they are not told the names of: formatters and fixers. */
const FORMATTER = /\b(?:prettier|black|ruff|gofmt|goimports|rustfmt|cargo\s+fmt|clang-format|eslint\b[^\n]*--fix|biome|dprint|autopep8|isort|yapf|shfmt|stylua|mix\s+format|dotnet\s+format|terraform\s+fmt|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:format|fmt|lint:fix|fix))\b/;

/** File names a command line gives (a word with an extension), to tell a formatter run on one file from one run on a folder. */
const FILE_ARG = /(?:^|[\s'"=/])([\w.-]+\.[A-Za-z][\w]{0,7})(?=$|[\s'";|&)])/g;

/**
 * Whether a Bash command could have changed a file: it names the file, or it
 * is a formatter that names no other file (run on a folder, or on everything).
 */
export function commandTouches(command: string, path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name.length > 0 && command.includes(name)) return true;
  if (!FORMATTER.test(command)) return false;
  const files = [...command.matchAll(FILE_ARG)].map((m) => m[1]).filter((f) => !/^(?:package|tsconfig|pyproject|setup|\.prettierrc|biome)\.\w+$/.test(f));
  return files.length === 0;
}

/** The pull request's diff: its commits, changed files, binary files and added lines. */
export type PullRequestDiff = Awaited<ReturnType<typeof pullRequestDiff>>;

/** The changed files of base...head, with the lines each adds. */
export async function pullRequestDiff(repo: string, base: string, head: string, paths: string[] = []) {
  const [baseCommit, headCommit] = await Promise.all([resolveCommit(repo, base), resolveCommit(repo, head)]);
  const from = await mergeBase(repo, baseCommit, headCommit);
  const raw = await diffOutputs(repo, from, headCommit, paths);
  return { base: baseCommit, head: headCommit, mergeBase: from, files: parseNameStatus(raw.nameStatus), binary: parseBinaryPaths(raw.numstat), added: parseAddedLines(raw.patch) };
}

/** The time span whose edits can be the pull request's: a week before its oldest commit (or its base) to a day after its head. */
export async function pullRequestSpan(repo: string, from: string, to: string): Promise<{ start: number; end: number }> {
  const t = await commitTimes(repo, from, to);
  return { start: t.first - 7 * 86_400_000, end: t.last + 86_400_000 };
}

/** Whether at least half the lines a replay attributes are in the head (a redacted line counts as found). */
function fits(replay: FileReplay, head: ReadonlySet<string>): boolean {
  const written = [...(replay.lines ?? []), ...replay.loose].filter((l) => l.by).map((l) => normalizeLine(l.text));
  if (!written.length) return false;
  const found = written.filter((t) => head.has(t) || t.includes('[REDACTED:')).length;
  return found * 2 >= written.length;
}

/**
 * A notebook's added cell is JSON around its source lines (`{`, `"cell_type": "code",`, `]`):
 * in a run of added lines whose source lines are all one call's, the lines around them are that call's too.
 */
export function claimNotebookStructure(added: Array<{ line: number; text: string }>, claims: Map<number, Claim | undefined>): void {
  const isSource = (t: string) => notebookSourceLine(t) !== t;
  for (let i = 0; i < added.length; ) {
    let j = i;
    while (j + 1 < added.length && added[j + 1].line === added[j].line + 1) j++;
    const run = added.slice(i, j + 1);
    const owners = new Set(run.filter((a) => isSource(a.text)).map((a) => claims.get(a.line)));
    const [owner] = owners;
    if (owners.size === 1 && owner) for (const a of run) if (!isSource(a.text) && !claims.get(a.line)) claims.set(a.line, owner);
    i = j + 1;
  }
}

/** Whether any of a session's edits touches a changed file within the span. */
export function touchesWithin(session: Session, changed: ReadonlySet<string>, span: { start: number; end: number }, pageSize: number): boolean {
  const roots = sessionRoots(session);
  for (const e of sessionEvents(session, pageSize)) {
    const t = e.call.timestamp ? Date.parse(e.call.timestamp) : Number.NaN;
    if (Number.isFinite(t) && (t < span.start || t > span.end)) continue;
    if (e.ops.some((op) => op.op !== 'observe' && repoPathOf(op.path, roots, changed) !== undefined)) return true;
  }
  return false;
}

/**
 * Blames the pull request's added lines on the given sessions. Every line's
 * text is redacted before it is returned; attribution is decided on the
 * real text against the sessions' redacted text (placeholders match what
 * they stand for).
 */
export async function blame(options: BlameOptions, sessions: BlameSessionInput[], given?: PullRequestDiff): Promise<BlameReport> {
  const whole = given ?? (await pullRequestDiff(options.repo, options.base, options.head));
  const wanted = (options.paths ?? []).map((p) => p.replace(/^\.\//, '').replace(/\/+$/, ''));
  const diff = wanted.length ? { ...whole, files: whole.files.filter((f) => wanted.some((w) => f.path === w || f.path.startsWith(`${w}/`))) } : whole;
  const folders = (options.sessionFolders ?? []).map((f) => resolve(f));
  const inSessionFolder = (p: string) => folders.some((f) => resolve(options.repo, p).startsWith(`${f}/`));
  const textFiles = diff.files.filter((f) => (f.status === 'added' || f.status === 'modified' || f.status === 'copied' || f.status === 'type-changed') && !diff.binary.has(f.path) && !isLockfile(f.path) && !inSessionFolder(f.path));
  const [heads, bases, attrGenerated] = await Promise.all([
    readBlobs(options.repo, textFiles.map((f) => `${diff.head}:${f.path}`)),
    readBlobs(options.repo, textFiles.map((f) => `${diff.mergeBase}:${f.oldPath ?? f.path}`)),
    generatedByAttributes(options.repo, textFiles.map((f) => f.path)).catch(() => new Set<string>()),
  ]);
  const headOf = new Map(textFiles.map((f, i) => [f.path, heads[i]]));
  const baseOf = new Map(textFiles.map((f, i) => [f.path, bases[i]]));
  const blamed = new Set(textFiles.filter((f) => !attrGenerated.has(f.path) && !isGenerated(f.path, headOf.get(f.path))).map((f) => f.path));

  // Every session's events on the blamed files, by file, and a global rank (time, then session, then order).
  const perFile = new Map<string, Map<number, Array<{ event: SessionEvent; op?: FileOp }>>>();
  const all: Array<{ event: SessionEvent; session: number }> = [];
  sessions.forEach((s, index) => {
    const roots = sessionRoots(s.session);
    const events = sessionEvents(s.session, options.links.pageSize);
    const bash = events.filter((e) => e.bash);
    const touched = new Set<string>();
    for (const event of events) {
      all.push({ event, session: index });
      for (const op of event.ops) {
        const path = repoPathOf(op.path, roots, blamed);
        if (path === undefined) continue;
        touched.add(path);
        let bySession = perFile.get(path);
        if (!bySession) perFile.set(path, (bySession = new Map()));
        let list = bySession.get(index);
        if (!list) bySession.set(index, (list = []));
        list.push({ event, op });
      }
    }
    // The session's commands go into each file it touched, in their place.
    for (const path of touched) {
      const list = perFile.get(path)!.get(index)!;
      list.push(...bash.map((event) => ({ event })));
      list.sort((a, b) => a.event.seq - b.event.seq);
    }
  });
  const time = (e: SessionEvent) => (e.call.timestamp ? Date.parse(e.call.timestamp) : Number.NaN);
  all.sort((a, b) => (time(a.event) || 0) - (time(b.event) || 0) || a.session - b.session || a.event.seq - b.event.seq);
  const rank = new Map(all.map((x, i) => [x.event, i]));

  const links = sessions.map((s) => {
    const slug = s.entryId;
    const base = pagesBase(options.links.base, options.links.prefix);
    return { page: absoluteUrl(sessionUrl(base, slug), options.links.site), call: (c: CallRef) => absoluteUrl(sessionUrl(base, slug, { page: c.page, tool: c.id }), options.links.site) };
  });
  const authorOf = (claim: Claim | undefined): Author => (claim ? { type: claim.kind, session: claim.session, call: claim.call, url: links[claim.session].call(claim.call) } : { type: 'person' });

  const files: BlameFile[] = [];
  for (const f of diff.files) {
    const added = diff.added.get(f.path) ?? [];
    const kind: BlameFile['kind'] =
      f.status === 'deleted' ? 'deleted'
      : inSessionFolder(f.path) ? 'session'
      : diff.binary.has(f.path) ? 'binary'
      : f.status === 'renamed' ? 'renamed'
      : isLockfile(f.path) ? 'lockfile'
      : !blamed.has(f.path) ? 'generated'
      : 'text';
    const file: BlameFile = { path: f.path, ...(f.oldPath ? { oldPath: f.oldPath } : {}), status: f.status, kind, added: added.length, lines: [] };
    files.push(file);
    if (kind !== 'text' || !added.length) continue;
    const headText = headOf.get(f.path) ?? '';
    const headSet = new Set(splitLines(headText).map((l) => normalizeLine(f.path.endsWith('.ipynb') ? notebookSourceLine(l) : l)));
    const replays: FileReplay[] = [];
    // Sessions in the order they first touched the file: a later one starts from the file as the one before
    // left it (when that fits its edits better than the base does: fewer edits left unplaced).
    const order = [...(perFile.get(f.path) ?? [])].sort((a, b) => (rank.get(a[1][0].event) ?? 0) - (rank.get(b[1][0].event) ?? 0));
    let previous: string | undefined;
    for (const [index, list] of order) {
      const replayFrom = (initial: string | undefined) => replayFile(list, { session: index, initial, rankOf: (e) => rank.get(e) ?? 0, commandTouches: (c) => commandTouches(c, f.path) });
      let replay = replayFrom(baseOf.get(f.path));
      if (previous !== undefined && replay.loose.length) {
        const chained = replayFrom(previous);
        if (chained.loose.length < replay.loose.length) replay = chained;
      }
      // A session found only by its edits' paths may be another project's file of the same name: it counts
      // for this file only when most of what it wrote is in the head.
      if (sessions[index].reasons.every((r) => r === 'source') && !fits(replay, headSet)) continue;
      replays.push(replay);
      if (replay.lines) previous = `${replay.lines.map((l) => l.text).join('\n')}\n`;
    }
    const claims = replays.length ? matchLines({ head: splitLines(headText), added: added.map((a) => a.line), replays, notebook: f.path.endsWith('.ipynb') }) : new Map<number, Claim | undefined>();
    if (f.path.endsWith('.ipynb')) claimNotebookStructure(added, claims);
    file.lines = added.map((a) => ({ line: a.line, text: a.text, author: authorOf(claims.get(a.line)) }));
  }

  // What is shown is redacted: every line's text and every path, in one pass (placeholders numbered alike).
  const texts = files.flatMap((f) => f.lines.map((l) => l.text));
  const paths = files.flatMap((f) => [f.path, f.oldPath ?? '']);
  await createRedactor(options.redaction).redactSession([texts, paths]);
  const raw = new Map<string, Map<number, string>>();
  let t = 0;
  let p = 0;
  for (const f of files) {
    raw.set(paths[p], new Map(f.lines.map((l) => [l.line, l.text])));
    for (const l of f.lines) l.text = texts[t++];
    f.path = paths[p++];
    const old = paths[p++];
    if (f.oldPath !== undefined) f.oldPath = old;
  }
  // A session found only by its edits' paths is named when it wrote a line; the pull request's own always are.
  const claimed = new Set(files.flatMap((f) => f.lines.map((l) => (l.author.type === 'person' ? -1 : l.author.session))));
  const kept = sessions.map((s, i) => i).filter((i) => claimed.has(i) || !sessions[i].reasons.every((r) => r === 'source'));
  const renumber = new Map(kept.map((old, i) => [old, i]));
  for (const f of files) for (const l of f.lines) if (l.author.type !== 'person') l.author.session = renumber.get(l.author.session)!;
  return {
    base: diff.base,
    head: diff.head,
    mergeBase: diff.mergeBase,
    sessions: kept.map((i) => ({ id: sessions[i].session.sessionId, title: sessions[i].session.title, projectName: sessions[i].session.facts.projectName, url: links[i].page, reasons: sessions[i].reasons })),
    files,
    rawLine: (path, line) => raw.get(path)?.get(line),
  };
}
