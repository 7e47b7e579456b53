import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A source tree laid out like `~/.claude/projects` as a hostile repository
 * could commit it: folders and files that are symbolic links to what lies
 * outside the source (a kubeconfig, another transcript, a folder of agent
 * files), and session files whose names make unsafe ids (`...jsonl` → `..`,
 * `..jsonl` → `.`). Everything outside holds `outsideMarker`; every real
 * session holds `insideMarker`, so a test can tell what was read from where.
 */
export interface HostileTree {
  /** The temporary folder holding both. */
  tmp: string;
  /** Deletes the temporary folder (its links themselves, never what they point to). */
  remove(): void;
  /** The source root (`projects`). */
  root: string;
  /** What lies outside the source. */
  outside: string;
  /** The project folder (`-home-adalinde-work-api`). */
  projectFolder: string;
  /** A word only files outside the source hold. */
  outsideMarker: string;
  /** A word every real session's prompt holds. */
  insideMarker: string;
  /** Real sessions, each with something of it linked out. */
  ids: {
    /** Its `<session>/tool-results` folder is a link; its kept output names `config` there. */
    linkedResults: string;
    /** Its `<session>/subagents` folder is a link to a folder of agent files. */
    linkedSubagents: string;
    /** Its kept output file itself is a link to the kubeconfig. */
    linkedKeptFile: string;
    /** A plain session with nothing linked. */
    plain: string;
    /** A session file that is a link to a transcript outside. */
    linkedSessionFile: string;
  };
  /** The login name in the project folder and the sessions' `cwd`. */
  username: string;
}

/** Four lines of a real-looking session: a prompt, a Bash call, its result (kept output), an answer. */
function sessionLines(sessionId: string, cwd: string, marker: string, keptName: string): string {
  const t = (n: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, n)).toISOString();
  const u1 = randomUUID();
  const a1 = randomUUID();
  const r1 = randomUUID();
  const a2 = randomUUID();
  const toolId = `toolu_01${randomBytes(10).toString('hex')}`;
  const base = { sessionId, cwd, version: '2.1.120', gitBranch: 'main', userType: 'external', isSidechain: false };
  const preview = `<persisted-output>\nOutput too large (41.2KB). Full output saved to: ${cwd.replace(/\/work\/api$/, '')}/.claude/projects/-x/${sessionId}/tool-results/${keptName}\n\nPreview (first 2KB):\napiVersion: v1\n</persisted-output>`;
  return [
    { ...base, type: 'user', uuid: u1, parentUuid: null, timestamp: t(0), message: { role: 'user', content: `Check the cluster config, ${marker}` } },
    { ...base, type: 'assistant', uuid: a1, parentUuid: u1, timestamp: t(1), message: { id: `msg_${randomBytes(8).toString('hex')}`, role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'tool_use', id: toolId, name: 'Bash', input: { command: 'cat ~/.kube/config' } }], usage: { input_tokens: 10, output_tokens: 5 } } },
    { ...base, type: 'user', uuid: r1, parentUuid: a1, timestamp: t(2), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: preview }] } },
    { ...base, type: 'assistant', uuid: a2, parentUuid: r1, timestamp: t(3), message: { id: `msg_${randomBytes(8).toString('hex')}`, role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'text', text: `Done ${marker}.` }], usage: { input_tokens: 10, output_tokens: 5 } } },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n') + '\n';
}

/** An agent transcript of one line. */
function agentLines(sessionId: string, cwd: string, marker: string): string {
  return `${JSON.stringify({ sessionId, cwd, agentId: 'x1', isSidechain: true, type: 'user', uuid: randomUUID(), parentUuid: null, timestamp: new Date().toISOString(), message: { role: 'user', content: `agent prompt ${marker}` } })}\n`;
}

/** Makes a fresh hostile tree in a temporary folder. */
export function makeHostileTree(): HostileTree {
  const tmp = mkdtempSync(join(tmpdir(), 'sessionpress-hostile-'));
  const root = join(tmp, 'projects');
  const outside = join(tmp, 'outside');
  const username = 'adalinde';
  const projectFolder = `-home-${username}-work-api`;
  const cwd = `/home/${username}/work/api`;
  const outsideMarker = `outsidemark${randomBytes(4).toString('hex')}`;
  const insideMarker = `insidemark${randomBytes(4).toString('hex')}`;
  const project = join(root, projectFolder);
  mkdirSync(project, { recursive: true });
  mkdirSync(join(outside, 'results'), { recursive: true });
  mkdirSync(join(outside, 'agents'), { recursive: true });
  mkdirSync(join(outside, 'project'), { recursive: true });

  const kube = `apiVersion: v1\nclusters:\n- cluster:\n    server: https://k8s.${outsideMarker}.example\nusers:\n- name: admin ${outsideMarker}\n`;
  writeFileSync(join(outside, 'kube-config'), kube);
  writeFileSync(join(outside, 'results', 'config'), kube);
  const ids = { linkedResults: randomUUID(), linkedSubagents: randomUUID(), linkedKeptFile: randomUUID(), plain: randomUUID(), linkedSessionFile: randomUUID() };
  writeFileSync(join(outside, 'agents', 'agent-a1b2c3.jsonl'), agentLines(ids.linkedSubagents, cwd, outsideMarker));
  writeFileSync(join(outside, 'agents', 'agent-a1b2c3.meta.json'), JSON.stringify({ agentType: `reader ${outsideMarker}` }));
  writeFileSync(join(outside, 'session.jsonl'), sessionLines(ids.linkedSessionFile, cwd, outsideMarker, 'x.txt'));
  writeFileSync(join(outside, 'project', `${randomUUID()}.jsonl`), sessionLines(randomUUID(), cwd, outsideMarker, 'x.txt'));

  // 1. A session whose tool-results folder is a link: its kept output names `config`, which lies outside.
  writeFileSync(join(project, `${ids.linkedResults}.jsonl`), sessionLines(ids.linkedResults, cwd, insideMarker, 'config'));
  mkdirSync(join(project, ids.linkedResults));
  symlinkSync(join(outside, 'results'), join(project, ids.linkedResults, 'tool-results'));
  // 2. A session whose subagents folder is a link.
  writeFileSync(join(project, `${ids.linkedSubagents}.jsonl`), sessionLines(ids.linkedSubagents, cwd, insideMarker, 'none.txt'));
  mkdirSync(join(project, ids.linkedSubagents));
  symlinkSync(join(outside, 'agents'), join(project, ids.linkedSubagents, 'subagents'));
  // 3. A session whose kept output file is a link (its folder is real).
  writeFileSync(join(project, `${ids.linkedKeptFile}.jsonl`), sessionLines(ids.linkedKeptFile, cwd, insideMarker, 'out.txt'));
  mkdirSync(join(project, ids.linkedKeptFile, 'tool-results'), { recursive: true });
  symlinkSync(join(outside, 'kube-config'), join(project, ids.linkedKeptFile, 'tool-results', 'out.txt'));
  // 4. A plain session.
  writeFileSync(join(project, `${ids.plain}.jsonl`), sessionLines(ids.plain, cwd, insideMarker, 'none.txt'));
  // 5. A session file that is a link to a transcript outside, and an agent file beside the sessions that is one too.
  symlinkSync(join(outside, 'session.jsonl'), join(project, `${ids.linkedSessionFile}.jsonl`));
  symlinkSync(join(outside, 'agents', 'agent-a1b2c3.jsonl'), join(project, 'agent-linked.jsonl'));
  // 6. Names that make unsafe ids: `...jsonl` → `..`, `..jsonl` → `.`, `.jsonl` → ``.
  for (const name of ['...jsonl', '..jsonl', '.jsonl']) writeFileSync(join(project, name), sessionLines(randomUUID(), cwd, insideMarker, 'none.txt'));
  // 7. A whole project folder that is a link.
  symlinkSync(join(outside, 'project'), join(root, `-home-${username}-work-linked`));
  return { tmp, remove: () => rmSync(tmp, { recursive: true, force: true }), root, outside, projectFolder, outsideMarker, insideMarker, ids, username };
}
