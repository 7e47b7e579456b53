import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cleanStringsKey, createCleanStrings } from '../../../src/lib/redact/clean-strings.js';
import { createRedactor } from '../../../src/lib/redact/redactor.js';

const key = cleanStringsKey('salt', '{"type":"user","cwd":"/work"}');
const TOKEN = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z05';
const LEARNT = 'Kx7Qm2Vw9Rt4';
const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A session's old lines, then what Claude Code appended: the new lines teach a password that an old line holds bare. */
const oldLines = () => [
  { type: 'user', message: { content: `the rotation replaced ${LEARNT} last week` } },
  { type: 'assistant', message: { content: [{ type: 'text', text: 'Nothing secret in this answer, only words.' }] } },
];
const newLines = () => [{ type: 'user', message: { content: `export DB_PASSWORD=${LEARNT} && deploy with ${TOKEN}` } }];

describe('createCleanStrings', () => {
  it('keeps no string, only digests that the same key alone can match', () => {
    const first = createCleanStrings(key);
    first.add('a string the redaction found clean');
    const saved = first.toBuffer();
    expect(saved.toString('latin1')).not.toContain('clean');
    expect(createCleanStrings(key, saved).has('a string the redaction found clean')).toBe(true);
    expect(createCleanStrings(key, saved).has('another string')).toBe(false);
    // Another session's first bytes, or other settings: another key, nothing matches.
    expect(createCleanStrings(cleanStringsKey('salt', '{"type":"user","cwd":"/other"}'), saved).has('a string the redaction found clean')).toBe(false);
    expect(createCleanStrings(cleanStringsKey('other salt', '{"type":"user","cwd":"/work"}'), saved).has('a string the redaction found clean')).toBe(false);
  });
});

describe('redactSession with the clean strings of its last redaction', () => {
  it('records only strings nothing was found or replaced in', async () => {
    const clean = createCleanStrings(key);
    const values = [...oldLines(), ...newLines()];
    await createRedactor().redactSession(values, {}, { clean });
    const next = createCleanStrings(key, clean.toBuffer());
    expect(next.has('Nothing secret in this answer, only words.')).toBe(true);
    // The password taught by the new line is replaced in the old one: not clean.
    expect(next.has(`the rotation replaced ${LEARNT} last week`)).toBe(false);
    expect(next.has(`export DB_PASSWORD=${LEARNT} && deploy with ${TOKEN}`)).toBe(false);
  });

  it('redacts a grown session as a redaction from scratch does: what the new lines teach is replaced in the old ones too', async () => {
    const clean = createCleanStrings(key);
    const before = oldLines();
    await createRedactor().redactSession(before, {}, { clean });
    // The old line was clean: it holds the password bare, with nothing that says it is one.
    expect(JSON.stringify(before)).toContain(LEARNT);
    const grown = [...oldLines(), ...newLines()];
    await createRedactor().redactSession(grown, {}, { clean: createCleanStrings(key, clean.toBuffer()) });
    const fresh = [...oldLines(), ...newLines()];
    await createRedactor().redactSession(fresh, {});
    expect(grown).toEqual(fresh);
    expect(JSON.stringify(grown)).not.toContain(LEARNT);
    expect(JSON.stringify(grown)).not.toContain(TOKEN);
  });

  it('keeps looking at a string that taught something, though nothing in it was replaced', async () => {
    // A short login is left bare in running text, but learnt: it is blanked in paths and the like elsewhere.
    const lines = () => [{ text: 'Logged in to github.com account al (keyring)' }];
    const clean = createCleanStrings(key);
    const first = createRedactor();
    await first.redactSession(lines(), {}, { clean });
    expect(first.knownUsernames()).toContain('al');
    const again = createRedactor();
    await again.redactSession(lines(), {}, { clean: createCleanStrings(key, clean.toBuffer()) });
    expect(again.knownUsernames()).toContain('al');
  });

  it('does not look again at a string recorded clean, and looks at everything when the digests were made under another key', async () => {
    // Recorded clean by hand (no redaction would): proof that the strings are skipped, which is why only a key
    // from the session's own bytes can match them.
    const forged = createCleanStrings(key);
    forged.add(`token ${TOKEN}`);
    const skipped = [{ text: `token ${TOKEN}` }];
    await createRedactor().redactSession(skipped, {}, { clean: createCleanStrings(key, forged.toBuffer()) });
    expect(skipped[0].text).toContain(TOKEN);
    const otherKey = [{ text: `token ${TOKEN}` }];
    await createRedactor().redactSession(otherKey, {}, { clean: createCleanStrings(cleanStringsKey('salt', 'another head'), forged.toBuffer()) });
    expect(otherKey[0].text).not.toContain(TOKEN);
  });
});

describe('redactSession of a session grown more than once', () => {
  // Generations of one session: each build sees the lines so far, with the clean strings of the build before.
  const generations = () => [
    [
      { type: 'user', message: { content: 'Please tidy the release notes before Friday, thanks.' } },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'Ada Lovelace asked for this in the last review.' }] } },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'The config sits on the ADALOVE-HOST machine.' }] } },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'Its backup copy is named Kx7Qm2Vw9Rt4 there.' }] } },
    ],
    // Teaches nothing new.
    [{ type: 'user', message: { content: 'Now run the linter over the whole tree, please.' } }],
    // Teaches a name (git's author), a login (a home folder) and a password, each held bare by an old line.
    [
      { type: 'user', message: { content: 'commit 1a2b3c\nAuthor: Ada Lovelace <ada@analytical-engines.io>\n\n    Tidy notes' } },
      { type: 'user', message: { content: 'ls /home/adalove/notes' } },
      { type: 'user', message: { content: 'export DB_PASSWORD=Kx7Qm2Vw9Rt4' } },
    ],
    // Teaches nothing new again.
    [{ type: 'assistant', message: { content: [{ type: 'text', text: 'The linter found nothing to fix anywhere.' }] } }],
  ];

  it('redacts every generation as a redaction from scratch does', async () => {
    let previous: Buffer | undefined;
    for (let n = 1; n <= generations().length; n++) {
      const grown = generations().slice(0, n).flat();
      const clean = createCleanStrings(key, previous);
      await createRedactor().redactSession(grown, {}, { clean });
      previous = clean.toBuffer();
      const fresh = generations().slice(0, n).flat();
      await createRedactor().redactSession(fresh, {});
      expect(grown, `generation ${n}`).toEqual(fresh);
    }
    const last = JSON.stringify(generations().flat());
    expect(last).toContain('Ada Lovelace asked');
    const redacted = generations().flat();
    await createRedactor().redactSession(redacted, {}, { clean: createCleanStrings(key, previous) });
    // What the third generation taught is blanked in the first generation's lines, logins in any case.
    expect(JSON.stringify(redacted)).not.toMatch(/Ada Lovelace|adalove|Kx7Qm2Vw9Rt4/i);
  });

  it('does the same when the new lines teach more values than one regex V8 optimises can hold', async () => {
    // Two thousand passwords: the regex of what was learnt since is past 20 KB, so old strings are first asked where one may start.
    // Shaped like the one above (a letter, a digit, and so on), each its own.
    const passwords = Array.from({ length: 2000 }, (_, i) => [...createHash('sha256').update(`password ${i}`).digest().subarray(0, 12)].map((b, j) => (j % 2 ? String(b % 10) : LETTERS[b % LETTERS.length])).join(''));
    const lines = (n: number) => [
      ...generations()[0],
      { type: 'assistant', message: { content: [{ type: 'text', text: `Backups are kept as ${passwords.slice(0, 3).join(', ')} and ${passwords.at(-1)}.` }] } },
      ...(n > 1 ? [...generations()[2], ...passwords.map((p) => ({ type: 'user', message: { content: `export DB_PASSWORD=${p}` } }))] : []),
    ];
    const clean = createCleanStrings(key);
    await createRedactor().redactSession(lines(1), {}, { clean });
    const grown = lines(2);
    await createRedactor().redactSession(grown, {}, { clean: createCleanStrings(key, clean.toBuffer()) });
    const fresh = lines(2);
    await createRedactor().redactSession(fresh, {});
    expect(grown).toEqual(fresh);
    expect(JSON.stringify(grown)).not.toMatch(new RegExp(`Ada Lovelace|adalove|${passwords.slice(0, 3).join('|')}|${passwords.at(-1)}`, 'i'));
  });

  it('leaves a string clean last time as it is when nothing was learnt since, and looks at it again when something learnt then is not known now', async () => {
    // Recorded clean by hand, with nothing replaced: a real redaction would have blanked the home folder's login.
    const forged = createCleanStrings(key);
    forged.add('see /home/ada/project/notes.md');
    forged.learntSince([]);
    const skipped = [{ text: 'see /home/ada/project/notes.md' }];
    await createRedactor().redactSession(skipped, {}, { clean: createCleanStrings(key, forged.toBuffer()) });
    expect(skipped[0].text).toBe('see /home/ada/project/notes.md');
    // The last redaction replaced a value this one does not know (the session's lines were not only appended to).
    const gone = createCleanStrings(key);
    gone.add('see /home/ada/project/notes.md');
    gone.learntSince(['vSomeValueSinceGone']);
    const looked = [{ text: 'see /home/ada/project/notes.md' }];
    await createRedactor().redactSession(looked, {}, { clean: createCleanStrings(key, gone.toBuffer()) });
    expect(looked[0].text).toBe('see ~/project/notes.md');
  });

  it('keeps what it replaced as digests only', () => {
    const clean = createCleanStrings(key);
    clean.learntSince(['vKx7Qm2Vw9Rt4', 'uadalove', 'nAda Lovelace']);
    const saved = clean.toBuffer().toString('latin1');
    expect(saved).not.toMatch(/Kx7Qm2Vw9Rt4|adalove|Lovelace/);
    expect(createCleanStrings(key, clean.toBuffer()).learntSince(['vKx7Qm2Vw9Rt4', 'uadalove', 'nAda Lovelace', 'vnew one'])).toEqual(['vnew one']);
    expect(createCleanStrings(key, clean.toBuffer()).learntSince(['vKx7Qm2Vw9Rt4'])).toBeUndefined();
  });
});
