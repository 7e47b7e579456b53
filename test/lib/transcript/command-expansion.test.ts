import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { corpusRoot, rawEntries } from '../../helpers/shared.js';
import { loadSessionFile } from '../../helpers/sessions.js';
import type { UserMessage } from '../../../src/lib/transcript/types.js';

/** Every slash command of a corpus file whose next meta entry is its child, with that entry's text. */
function expectedExpansions(relFile: string): Map<string, string> {
  const out = new Map<string, string>();
  const commands = new Set<string>();
  for (const e of rawEntries(join(corpusRoot, relFile))) {
    const content = e?.message?.content;
    const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((b: any) => b?.text ?? '').join('\n\n') : '';
    if (e?.type === 'user' && text.includes('<command-name>')) commands.add(e.uuid);
    else if (e?.type === 'user' && e.isMeta && commands.has(e.parentUuid) && !text.trim().startsWith('<local-command-caveat>')) out.set(e.parentUuid, text);
  }
  return out;
}

describe('slash command expansion', () => {
  it('keeps what Claude received under the command that produced it', async () => {
    const file = '-Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl';
    const expected = expectedExpansions(file);
    expect(expected.size).toBeGreaterThan(0);
    const session = await loadSessionFile(corpusRoot, file);
    const commands = session.messages.filter((m): m is UserMessage => m.kind === 'user' && m.userKind === 'command');
    for (const [uuid, text] of expected) {
      const command = commands.find((m) => m.uuid === uuid);
      expect(command?.command?.expansion, uuid).toBe(text);
    }
    // A command with no child meta entry gets none.
    for (const m of commands) if (!expected.has(m.uuid)) expect(m.command?.expansion).toBeUndefined();
  });
});
