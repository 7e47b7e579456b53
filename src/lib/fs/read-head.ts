import { dirname } from 'node:path';
import { openInside } from './safe-path.js';

/**
 * The first `bytes` of a session or agent file (for a quick look: its `cwd`,
 * its `sessionId`, a title), read like every session file: never through a
 * link, and an unreadable file reads as empty. Cut mid-character at the end.
 */
export async function readHead(path: string, bytes: number): Promise<string> {
  let handle;
  try {
    handle = await openInside(dirname(path), path);
  } catch {
    return '';
  }
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The `cwd` values written in the first `bytes` of a session file, in order, each once. */
export async function headCwds(path: string, bytes = 64 * 1024): Promise<string[]> {
  const text = await readHead(path, bytes);
  const out = new Set<string>();
  for (const m of text.matchAll(/"cwd"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
    try {
      out.add(JSON.parse(m[1]) as string);
    } catch {
      // cut off at the end of the head
    }
  }
  return [...out];
}
