import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

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
