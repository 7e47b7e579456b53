import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A stable new uuid for `uuid` in copy `copy`: the same input always maps to the same output. */
export function remapUuid(uuid: string, copy: number): string {
  const h = createHash('sha1').update(`${copy}:${uuid}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Rewrites every uuid in a text (file contents or a path) for one copy. */
export function remapText(text: string, copy: number): string {
  return text.replace(UUID, (u) => remapUuid(u, copy));
}

/**
 * Copies a `~/.claude/projects`-like tree `copies` times into `out`, each copy
 * in its own project folders (`<folder>-copy<N>`) with every uuid (session ids,
 * entry uuids, file names) rewritten, so no two files are byte-identical.
 * With `sameProjects` the copies stay in their project's folder: projects with
 * many sessions.
 */
export async function makeCopies(root: string, out: string, copies: number, opts: { sameProjects?: boolean } = {}): Promise<void> {
  const files = (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => join(e.parentPath, e.name));
  for (let copy = 1; copy <= copies; copy++) {
    for (const file of files) {
      const rel = relative(root, file);
      const [project, ...rest] = rel.split('/');
      const target = join(out, opts.sameProjects ? project : `${project}-copy${copy}`, remapText(rest.join('/'), copy));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, remapText(await readFile(file, 'utf8'), copy));
    }
  }
}

/**
 * Makes one session about `factor` times the size of the session in `projectDir`
 * by repeating its entries with fresh uuids, each repetition chained after the
 * previous one, so that the result is one long conversation.
 */
export async function makeBigSession(projectDir: string, out: string, factor: number): Promise<string> {
  const name = (await readdir(projectDir)).find((f) => f.endsWith('.jsonl'))!;
  const lines = (await readFile(join(projectDir, name), 'utf8')).split('\n').filter(Boolean);
  const sessionId = basename(name, '.jsonl');
  const parts: string[] = [];
  let lastUuid: string | null = null;
  for (let copy = 0; copy < factor; copy++) {
    for (const line of lines) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      const text =
        copy === 0
          ? line
          : remapText(line, copy)
              .replaceAll(remapUuid(sessionId, copy), sessionId)
              .replace(/toolu_[A-Za-z0-9]+/g, (id) => `${id}x${copy}`);
      const e = JSON.parse(text);
      if (copy > 0 && entry.parentUuid === null && e.type === 'user') e.parentUuid = lastUuid;
      if (typeof e.message?.id === 'string') e.message.id = `${e.message.id}_${copy}`;
      if (typeof e.uuid === 'string') lastUuid = e.uuid;
      parts.push(JSON.stringify(e));
    }
  }
  const target = join(out, basename(projectDir), name);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, `${parts.join('\n')}\n`);
  return target;
}
