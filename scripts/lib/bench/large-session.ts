/**
 * A large session for the bench: one long, ordinary conversation (prompts,
 * short answers, Read / Bash / Grep / Edit calls with outputs of a few kB and
 * the `toolUseResult` copy Claude Code writes beside each result), generated
 * until it reaches a target size. Deterministic: the same size always gives
 * the same bytes. Written as a stream, so making 630 MB takes little memory.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';

/** A small deterministic generator (mulberry32), so every run builds the same session. */
function createRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ven', 'tor', 'sal', 'ri', 'pe', 'dun', 'as', 'or', 'bel', 'qu', 'ix', 'na', 'ste', 'gro', 'fi', 'ul', 'zen'];

/**
 * Makes one session of about `targetBytes` in `out/<project>/<session-id>.jsonl`
 * and returns its path and line count.
 */
export async function makeLargeSession(out: string, targetBytes: number, seed = 1): Promise<{ file: string; lines: number; bytes: number }> {
  const rnd = createRandom(seed);
  // A vocabulary of made-up words, so that the search index sees many distinct terms as in real code and prose.
  const words = Array.from({ length: 6000 }, () => Array.from({ length: 2 + rnd.int(3) }, () => rnd.pick(SYLLABLES)).join(''));
  const word = () => rnd.pick(words);
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
  const ident = () => word() + word().replace(/^./, (c) => c.toUpperCase());
  const file = () => `src/${word()}/${word()}-${word()}.ts`;

  const project = '-home-bench-work-large';
  const sessionId = '5e55104d-0000-4000-8000-00000000b16a';
  const dir = join(out, project);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${sessionId}.jsonl`);
  const stream = createWriteStream(path);
  let bytes = 0;
  let lines = 0;
  let counter = 0;
  let parent: string | null = null;
  let clock = Date.UTC(2026, 9, 1, 8, 0, 0);
  const uuid = () => {
    counter++;
    const hex = counter.toString(16).padStart(12, '0');
    return `0000b16a-0000-4000-8000-${hex}`;
  };
  const base = () => ({ isSidechain: false, userType: 'external', cwd: '/home/bench/work/large', sessionId, version: '2.1.150', gitBranch: 'main' });
  const write = async (entry: Record<string, unknown>) => {
    const id = uuid();
    clock += 1000 + rnd.int(20000);
    const line = `${JSON.stringify({ parentUuid: parent, ...base(), ...entry, uuid: id, timestamp: new Date(clock).toISOString() })}\n`;
    parent = id;
    bytes += Buffer.byteLength(line);
    lines++;
    if (!stream.write(line)) await once(stream, 'drain');
  };
  const usage = () => ({ input_tokens: 4 + rnd.int(40), cache_creation_input_tokens: rnd.int(4000), cache_read_input_tokens: 20000 + rnd.int(80000), output_tokens: 50 + rnd.int(900) });
  const assistant = (content: unknown[]) => ({
    type: 'assistant',
    requestId: `req_${counter.toString(36)}`,
    message: { id: `msg_${counter.toString(36)}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: 'end_turn', usage: usage() },
  });

  /** One tool call and its result: the input, the output text and the structured copy Claude Code keeps. */
  const toolCall = (): { name: string; input: Record<string, unknown>; output: string; copy: unknown } => {
    const kind = rnd.int(4);
    if (kind === 0) {
      const filePath = `/home/bench/work/large/${file()}`;
      const n = 120 + rnd.int(160);
      const content = Array.from({ length: n }, (_, i) => `${'  '.repeat(rnd.int(4))}const ${ident()} = ${ident()}(${word()}, ${rnd.int(1000)}); // ${sentence(3)}`).join('\n');
      const numbered = content
        .split('\n')
        .map((l, i) => `${String(i + 1).padStart(6)}→${l}`)
        .join('\n');
      return { name: 'Read', input: { file_path: filePath }, output: numbered, copy: { type: 'text', file: { filePath, content, numLines: n, startLine: 1, totalLines: n } } };
    }
    if (kind === 1) {
      const command = `npm test -- ${file()}`;
      const out = Array.from({ length: 80 + rnd.int(120) }, () => `  ${rnd.next() < 0.9 ? '✓' : '×'} ${sentence(6)} (${rnd.int(200)} ms)`).join('\n');
      return { name: 'Bash', input: { command, description: sentence(4) }, output: out, copy: { stdout: out, stderr: '', interrupted: false, isImage: false } };
    }
    if (kind === 2) {
      const pattern = ident();
      const out = Array.from({ length: 60 + rnd.int(100) }, () => `${file()}:${1 + rnd.int(400)}:  ${pattern}(${word()}, ${sentence(4)})`).join('\n');
      return { name: 'Grep', input: { pattern, output_mode: 'content', '-n': true }, output: out, copy: { mode: 'content', numFiles: 10, filenames: [], content: out, numLines: out.split('\n').length } };
    }
    const filePath = `/home/bench/work/large/${file()}`;
    const oldString = Array.from({ length: 6 + rnd.int(20) }, () => `  return ${ident()}(${word()});`).join('\n');
    const newString = oldString.replace(/return /g, 'return await ');
    return {
      name: 'Edit',
      input: { file_path: filePath, old_string: oldString, new_string: newString, replace_all: false },
      output: `The file ${filePath} has been updated.`,
      copy: { filePath, oldString, newString, originalFile: oldString, structuredPatch: [], userModified: false, replaceAll: false },
    };
  };

  let turn = 0;
  while (bytes < targetBytes) {
    turn++;
    await write({ type: 'user', message: { role: 'user', content: `Turn ${turn}: ${sentence(12 + rnd.int(30))}` } });
    await write(assistant([{ type: 'text', text: `I'll ${sentence(10 + rnd.int(20))}.` }]));
    for (let k = 0, calls = 2 + rnd.int(3); k < calls; k++) {
      const call = toolCall();
      const id = `toolu_${turn.toString(36)}_${k}_${counter.toString(36)}`;
      await write(assistant([{ type: 'tool_use', id, name: call.name, input: call.input }]));
      await write({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: call.output }] }, toolUseResult: call.copy });
    }
    await write(assistant([{ type: 'text', text: `${sentence(20 + rnd.int(60))}.\n\n- ${sentence(8)}\n- ${sentence(8)}` }]));
  }
  stream.end();
  await once(stream, 'finish');
  return { file: path, lines, bytes };
}
