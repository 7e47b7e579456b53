/**
 * Writes the bundled sample sessions in `content/sessions/`.
 *
 * The samples are what a newcomer sees after `npm install && npm run build`, so
 * they are small, readable and made up for this project, but written in the
 * exact shape of real Claude Code 2.0.x and 2.1.x transcripts: split or
 * cumulative streaming, parallel tool calls, rewinds, compaction, subagents in
 * both layouts, a warmup agent, slash commands, queued prompts and so on.
 * `content/sessions/README.md` says which sample shows what.
 *
 * Each sample is one module in `scripts/samples/`, written in the small
 * language of `scripts/samples/dsl/` (transcripts, tool calls, an in-memory
 * project). Every id comes from a seeded generator (one seed per session), so
 * running the script again gives byte-identical files and a change to one
 * session leaves the others alone. The script checks its own output before
 * writing it.
 *
 * Usage: npm exec -- tsx scripts/make-samples.ts [output-root]
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { balanceBarsSample } from './samples/balance-bars.js';
import { copyingObjectsSample, SEARCH_WORD } from './samples/copying-objects.js';
import { validate, type SampleSession } from './samples/dsl/sample.js';
import { greenhouseRemindersSample } from './samples/greenhouse-reminders.js';
import { settleInCentsSample } from './samples/settle-in-cents.js';

async function main(): Promise<void> {
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'content', 'sessions'));
  const sessions = [settleInCentsSample(), balanceBarsSample(), greenhouseRemindersSample(), copyingObjectsSample()];
  for (const session of sessions) session.files.forEach(validate);
  await clearGeneratedFolders(root);
  let total = 0;
  for (const session of sessions) total += await writeSession(root, session);
  console.log(`total ${(total / 1024).toFixed(1)} KiB; search word "${SEARCH_WORD}"`);
}

/** Replaces the generated project folders wholesale; README.md and anything else stays. */
async function clearGeneratedFolders(root: string): Promise<void> {
  await mkdir(root, { recursive: true });
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name.startsWith('-home-demo-projects-')) {
      await rm(join(root, entry.name), { recursive: true });
    }
  }
}

/** Writes one session's files as JSONL; returns the bytes written. */
async function writeSession(root: string, session: SampleSession): Promise<number> {
  let bytes = 0;
  for (const file of session.files) {
    const body = file.lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
    const path = join(root, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, body);
    bytes += Buffer.byteLength(body);
    console.log(`${file.path}  ${file.lines.length} lines, ${(Buffer.byteLength(body) / 1024).toFixed(1)} KiB`);
  }
  console.log(`  ${session.title}: ${JSON.stringify(session.landmarks)}`);
  return bytes;
}

await main();
