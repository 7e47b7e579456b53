import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createRedactor,
  redactProjectFolder,
  usernamesFromCwds,
  usernamesFromFolder,
  type RedactionOptions,
} from '../../../src/lib/redact/index.js';
import { findEmails } from '../../../src/lib/redact/rules.js';
import { COMMON_USERNAMES, homeNameOf, NON_PERSONAL_HOMES, usernameForms } from '../../../src/lib/redact/usernames.js';
import { decodeProjectFolder } from '../../../src/lib/transcript/build-session.js';
import { SECRETLINT_RULE_IDS } from '../../../src/lib/redact/secretlint.js';
import { generateCredentials } from '../../helpers/credentials.js';
import { jpegSegment, jpegWith, png3x2, pngChunk, tiff } from '../../helpers/images.js';

/** Redacts one string as a one-entry session. */
async function redact(text: string, options?: RedactionOptions, hints?: { projectFolders?: string[]; cwds?: string[] }) {
  const values: unknown[] = [{ text }];
  const report = await createRedactor(options).redactSession(values, hints);
  return { out: (values[0] as { text: string }).text, report };
}

// Invented secrets, shaped like the real ones.
const GHP = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z05';
const AKIA = 'AKIA' + 'QWERTYUIOPASDF12';
const PW = 'Zorb-81quixAmple-7';

describe('secretlint rules', () => {
  it('redacts a GitHub token and reports it by rule, without the secret in the sample', async () => {
    const { out, report } = await redact(`export GITHUB_TOKEN=${GHP} && deploy`);
    expect(out).toBe('export GITHUB_TOKEN=[REDACTED:github-token] && deploy');
    expect(report.findings.map((f) => f.rule)).toEqual(['github-token']);
    expect(report.findings[0].samples.join('')).not.toContain(GHP);
    expect(report.findings[0].samples[0]).toContain('GITHUB_TOKEN=ghp_');
  });
});

describe('secretlint rule set', () => {
  it('uses the recommended preset, minus the comment filter and the rules ours replace', () => {
    expect(SECRETLINT_RULE_IDS.length).toBeGreaterThan(15);
    expect(SECRETLINT_RULE_IDS).toContain('@secretlint/secretlint-rule-github');
    expect(SECRETLINT_RULE_IDS).not.toContain('@secretlint/secretlint-rule-filter-comments');
  });
});

describe('text cannot switch detection off', () => {
  it('ignores secretlint-disable comments in transcripts', async () => {
    const { out } = await redact(`// secretlint-disable\nconst t = "${GHP}";`);
    expect(out).not.toContain(GHP);
  });
});

describe('our rules', () => {
  it('AWS access key ids and Google API keys', async () => {
    const google = 'AIza' + 'SyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW';
    const { out } = await redact(`id ${AKIA} and ${google}.`);
    expect(out).toBe('id [REDACTED:aws-access-key-id] and [REDACTED:google-api-key].');
  });

  it('JWTs: all three parts, also where only the payload reappears', async () => {
    const header = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
    const payload = Buffer.from('{"sub":"1234567890","name":"Quentin"}').toString('base64url');
    const sig = 'kq3V9x1TzB7wRmN2cY5uH8eJ0aL4sD6fG1hK3pO9iQw';
    const values: unknown[] = [{ a: `token ${header}.${payload}.${sig}` }, { b: `payload was ${payload}` }];
    await createRedactor().redactSession(values);
    const out = JSON.stringify(values);
    expect(out).not.toContain(payload);
    expect(out).not.toContain(sig);
    expect(out).toContain('token [REDACTED:jwt]');
    expect(out).toContain('payload was [REDACTED:jwt]');
  });

  it('e-mail addresses, but not package@version, ssh hosts or example addresses', async () => {
    const { out } = await redact(
      'mail quentin.zorb@qux-mail.io; npm i pagefind@1.2.0 @scope/pkg@2.0.1; git@github.com:o/r.git; user@example.com; icon@2x.png',
    );
    expect(out).toBe(
      'mail [REDACTED:email]; npm i pagefind@1.2.0 @scope/pkg@2.0.1; git@github.com:o/r.git; user@example.com; icon@2x.png',
    );
  });

  it('finds addresses by their @ the way the address grammar says', () => {
    expect(findEmails('(q.z+tag@mail.qux.io), .dot@qux.io x@y a@b.c0m')).toEqual([{ index: 1, value: 'q.z+tag@mail.qux.io' }]);
    expect(findEmails(`${'a'.repeat(65)}@qux.io`)).toEqual([]);
    expect(findEmails(`${'a'.repeat(64)}@qux.io`)).toHaveLength(1);
  });

  it('credentials inside URLs keep scheme and host; URLs without credentials stay', async () => {
    const { out } = await redact(
      `postgres://app_rw:${PW}@db.internal.qux.io:5432/main and postgres://localhost:5432/dev_db and https://qux.io/a@b`,
    );
    expect(out).toBe(
      'postgres://[REDACTED:url-credentials]@db.internal.qux.io:5432/main and postgres://localhost:5432/dev_db and https://qux.io/a@b',
    );
  });

  it('the bare password of a URL is redacted wherever it reappears', async () => {
    const values: unknown[] = [`mysql://root:${PW}@10.0.0.3/db`, `PGPASS is ${PW} too`];
    await createRedactor().redactSession(values);
    expect(JSON.stringify(values)).not.toContain(PW);
  });

  it('values assigned to secret-looking names in env, YAML, JSON and shell', async () => {
    const cases = [
      `PASSWORD=${PW}`,
      `db_password: ${PW}`,
      `"token": "${PW}"`,
      `export X_SECRET='${PW}'`,
      `{\\"apiKey\\": \\"${PW}\\"}`,
      `mytool --api-key ${PW} run`,
      `Authorization: Bearer ${PW}abcdef`,
    ];
    for (const c of cases) {
      const { out } = await redact(c);
      expect(out, c).not.toContain(PW);
      expect(out, c).toMatch(/\[REDACTED:[a-z-]+\]/);
    }
  });

  it('a base64 key that opens with a slash (one random key in 64) is a key, not a path', async () => {
    // Random bytes whose base64 opens with `/`: the first six bits all set.
    const slashKey = (bytes: number): string => {
      const b = randomBytes(bytes);
      b[0] |= 0xfc;
      return b.toString('base64');
    };
    // Also one with no digit (about one such key in 250 has none), and one with a short piece that reads as a name (`hlKt`).
    const values = [slashKey(32), slashKey(24), slashKey(48), slashKey(33), '/vQmZkTrPwXbNcYdLhGsJfKaEuRiOpWqzMnBxCtHyAe=', '/vQmZkTrPwXbNcYdLhGsJfKaEuRiOpWqzMnBxCtHyAeD', '/XxwrBZod3wAbuOv62ibdGxPksJctu1ctrTt/hlKt/eDq7'].filter((v) => /[a-z]/.test(v) && /[A-Z]/.test(v));
    expect(values.length).toBeGreaterThan(0);
    for (const v of values) {
      expect(v.startsWith('/')).toBe(true);
      for (const c of [`privateKey: ${v}`, `SECRET_KEY=${v}`, `"client_secret": "${v}"`, `--api-key ${v}`]) {
        const { out } = await redact(c);
        expect(out, c).not.toContain(v);
        expect(out, c).toMatch(/\[REDACTED:[a-z-]+\]/);
      }
    }
    // A folder given to a secret-looking name stays: its pieces are names.
    for (const keep of ['key_dir: /opt/Ada/Projects2/keys9', 'secret: /srv/ci/Secrets/Deploy2Key', 'SECRET_STORE=/var/lib/Vault3/dataAbc', 'SECRETS_ROOT=/ApplicationsSupport', 'token_home: /VaultTokens/Deploy']) {
      const { out } = await redact(keep);
      expect(out, keep).toBe(keep);
    }
  });

  it('leaves names without values, code and prose alone', async () => {
    const keep = [
      'Set OPENAI_API_KEY in your shell before running.',
      'The password reset form no longer echoes the session token back.',
      'password: string; token: string | undefined;',
      'const token = process.env.GITHUB_TOKEN;',
      'token: ${{ secrets.GITHUB_TOKEN }}',
      'api_key = os.environ["API_KEY"]',
      'max_tokens: 4096, input_tokens: 12345678',
      'PASSWORD_MIN_LENGTH=12',
      'commit c38fdd42a3c037c5ac11b249e534a325237a5b45',
      'uuid 206a233b-cb9c-430e-a2a1-3982704a4361 msg_01GI6CmqhKEfWJ5SZnSvTGyq toolu_01LQ19jVGOBejnMRFG83BHtg',
      'integrity sha512-2vmmGJKmBDpOk1fV3tGFbkRadEgE1YfjlgNRmgk8ISl6P9XYS6buiLt7f6Cw20kSq6J2OySF9lcN3RfGcxa3gA==',
      'password: <your password here>',
      'See https://github.com/home/about and /api/home/settings',
      '-----BEGIN RSA PRIVATE KEY----- is the header the parser looks for',
    ];
    for (const text of keep) {
      const { out, report } = await redact(text);
      expect(out, text).toBe(text);
      expect(report.total, text).toBe(0);
    }
  });

  it('private key blocks: whole block, escaped newlines, and a block split across strings', async () => {
    const lines = ['MIIEowIBAAKCAQEAx9Qz1mL2bN3vC4xZ5aS6dF7gH8jK9lP0oI1uY2tR3eW4qA5s', 'Dz6fX7cV8bN9mQ0wE1rT2yU3iO4pA5sD6fG7hJ8kL9zX0cV1bN2mQ3wE4rT5yU6i', 'Rq1w=='];
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}\n-----END RSA PRIVATE KEY-----`;
    const escaped = pem.replace(/\n/g, '\\n');
    const head = `log:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${lines[0]}\n${lines[1]}`;
    const tail = `${lines[1]}\n${lines[2]}\n-----END OPENSSH PRIVATE KEY-----\nok`;
    const values: unknown[] = [{ a: `before\n${pem}\nafter` }, { b: `KEY="${escaped}"` }, { c: head }, { d: tail }, { e: `stray ${lines[0]}` }];
    const report = await createRedactor().redactSession(values);
    const out = JSON.stringify(values);
    for (const line of lines.slice(0, 2)) expect(out).not.toContain(line);
    expect(out).not.toContain('Rq1w==');
    expect((values[0] as { a: string }).a).toBe('before\n[REDACTED:private-key]\nafter');
    expect((values[3] as { d: string }).d).toMatch(/^\[REDACTED:private-key(#\d+)?\]\nok$/);
    expect(report.findings.find((f) => f.rule === 'private-key')?.count).toBeGreaterThanOrEqual(4);
  });
});

describe('home paths and usernames', () => {
  it('rewrites every home path form to ~ and blanks the bare username', async () => {
    const { out } = await redact(
      'cd /home/zorbwick/work/x; ls /Users/zorbwick; C:\\Users\\zorbwick\\AppData; C:\\\\Users\\\\zorbwick\\\\x; host zorbwick-laptop; owner Zorbwick',
      {},
      { cwds: ['/home/zorbwick/work/x'] },
    );
    expect(out).toBe(
      'cd ~/work/x; ls ~; ~\\AppData; ~\\\\x; host [REDACTED:username]-laptop; owner [REDACTED:username]',
    );
  });

  it('rewrites home folders below a mount (WSL, macOS volumes, /var/home, /export/home, /usr/home) and learns their names from them', async () => {
    const { out } = await redact(
      'cd /mnt/c/Users/plimsoll/src; ls /System/Volumes/Data/Users/quorra/x /Volumes/Backup Disk/Users/tarkle/y /var/home/brindle /export/home/mostyn/z /usr/home/wendle/w; plimsoll quorra tarkle wendle; see https://host.example/var/home/zed',
    );
    expect(out).toBe('cd ~/src; ls ~/x ~/y ~ ~/z ~/w; [REDACTED:username] [REDACTED:username] [REDACTED:username] [REDACTED:username]; see https://host.example/var/home/zed');
  });

  it("learns the name in a Windows network home, and not in a folder path that only has a home or users folder inside", async () => {
    for (const text of ['net use H: \\\\fs01.corp.example\\home\\wendle', 'copy to \\\\nas\\users$\\wendle\\Documents', '"\\\\\\\\fs01\\\\Homes\\\\wendle\\\\x"']) {
      const { out } = await redact(`${text}; wendle wrote it`);
      expect(out, text).not.toContain('wendle');
    }
    for (const text of ['D:\\\\work\\\\home\\\\settings', 'C:\\data\\users\\settings', 'a.b\\\\x\\\\home\\\\settings']) {
      const { out } = await redact(`${text}; settings page`);
      expect(out, text).toBe(`${text}; settings page`);
    }
  });

  it('rewrites Cygwin, Git Bash and WSL-share homes, and learns the names behind a VS Code remote or a WSL share with backslashes', async () => {
    // Each alone: a name learnt from one form must not hide that another form went unread.
    const one = async (text: string) => (await redact(text)).out;
    expect(await one('ls /cygdrive/c/Users/plimsoll/src')).toBe('ls ~/src');
    expect(await one('cd /c/Users/quorra/x')).toBe('cd ~/x');
    expect(await one('open //wsl$/Ubuntu/home/tarkle/y and //wsl.localhost/Debian/home/brindle')).toBe('open ~/y and ~');
    expect(await one('code vscode-remote://wsl+Ubuntu/home/mostyn/app/a.ts')).toBe('code vscode-remote://wsl+Ubuntu/home/[REDACTED:username]/app/a.ts');
    expect(await one('vscode-remote://ssh-remote+box.lan/home/mostyn/app')).toBe('vscode-remote://ssh-remote+box.lan/home/[REDACTED:username]/app');
    expect(await one('dir \\\\wsl$\\Ubuntu\\home\\mostyn\\app')).toBe('dir \\\\wsl$\\Ubuntu\\home\\[REDACTED:username]\\app');
    // As JSON text writes it: every backslash doubled.
    expect(await one('dir \\\\\\\\wsl.localhost\\\\Ubuntu-22.04\\\\home\\\\mostyn\\\\app')).toBe('dir \\\\\\\\wsl.localhost\\\\Ubuntu-22.04\\\\home\\\\[REDACTED:username]\\\\app');
    // Not a drive: a word before it, or a URL's path.
    expect(await one('see a/c/Users/zed and https://host.example/c/Users/zed')).toBe('see a/c/Users/zed and https://host.example/c/Users/zed');
  });

  it("takes a Windows user folder named for its person whole, and each of its words wherever they appear", async () => {
    const { out } = await redact('cd C:\\Users\\Ada Quixworth\\src; type "C:\\\\Users\\\\Ada Quixworth\\\\x"; C:/Users/Ada Quixworth/y; Quixworth wrote it');
    expect(out).toBe('cd ~\\src; type "~\\\\x"; ~/y; [REDACTED:username] wrote it');
    // In a sentence, only a separator after the words makes them part of the name.
    expect((await redact('the files are in C:\\Users\\plimsoll is where Docs are\\')).out).toBe('the files are in ~ is where Docs are\\');
  });

  it("blanks a person's name given with their address or as git's author, wherever it appears in that case", async () => {
    const cases = [
      'Author: Qorvin Blastwell <qorvin.b@mailbox.io>',
      'Signed-off-by: Qorvin Blastwell <qb@corp.io>',
      'From: "Qorvin Blastwell" <qb@corp.io>',
      'From: "Blastwell, Qorvin" <qb@corp.io>',
      "To: 'Blastwell, Qorvin' <qb@corp.io>",
      '{"author": {"name": "Qorvin Blastwell", "email": "qb@corp.io"}}',
      '"author": "Qorvin Blastwell <qb@corp.io>"',
      'git config --global user.name "Qorvin Blastwell"',
      "GIT_AUTHOR_NAME='Qorvin Blastwell' git commit -m x",
      // git config --list, and a git config file read or printed.
      'core.editor=vim\nuser.name=Qorvin Blastwell\npush.default=simple',
      '[user]\n\tname = Qorvin Blastwell\n\teditor = vim\n[core]\n\tautocrlf = input',
      '[core]\n  pager = less\n[user]\n  signingkey = ~/.ssh/id_ed25519.pub\n  name = "Qorvin Blastwell" ; for work\n',
    ];
    for (const text of cases) {
      const values: unknown[] = [{ text }, { text: 'Copyright (c) 2026 Qorvin Blastwell. All rights reserved.' }];
      await createRedactor().redactSession(values);
      const out = JSON.stringify(values);
      expect(out, text).not.toContain('Blastwell');
      expect(out, text).toContain('[REDACTED:name]');
    }
  });

  it("leaves the names of tools and roles, one-word names and a name's other cases", async () => {
    const { out } = await redact(
      'Co-Authored-By: Claude <noreply@anthropic.com> | GitHub Actions <actions@corp.io> | Release Bot <rb@corp.io> | Mark <mark@corp.io>: Mark the task done | Qorvin Blastwell <qb@corp.io> and qorvin blastwell',
    );
    expect(out).toBe(
      'Co-Authored-By: Claude <noreply@anthropic.com> | GitHub Actions <[REDACTED:email]> | Release Bot <[REDACTED:email#2]> | Mark <[REDACTED:email#3]>: Mark the task done | [REDACTED:name] <[REDACTED:email#4]> and qorvin blastwell',
    );
  });

  it('takes the username from the project folder and from paths in the text', async () => {
    const a = await redact('whoami: qzxuser7', {}, { projectFolders: ['-home-qzxuser7-work-api'] });
    expect(a.out).toBe('whoami: [REDACTED:username]');
    const b = await redact('see /Users/plimsoll/x and plimsoll wrote it');
    expect(b.out).toBe('see ~/x and [REDACTED:username] wrote it');
  });

  it('learns the login from the lines that name the account at the keyboard, and blanks it wherever it appears', async () => {
    // Each alone, with nothing else naming the user: the login need not be the home's name.
    const lines = [
      'Logged in to github.com account zquistbury (keyring)',
      '✓ Logged in to github.com as zquistbury (oauth_token)',
      'npm notice Logged in as zquistbury on https://registry.npmjs.org/.',
      "Hi zquistbury! You've successfully authenticated, but GitHub does not provide shell access.",
      'Welcome to GitLab, @zquistbury!',
      'uid=1001(zquistbury) gid=1001(staff) groups=1001(staff)',
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq3Zr8x7NvP2Wc9QmT4kLsY1uHdE6fJbA0oRi5gVtXy zquistbury@workstation',
    ];
    for (const line of lines) {
      const values: unknown[] = [{ text: line }, { text: 'pushed to github.com/zquistbury/notes' }];
      await createRedactor().redactSession(values);
      expect(JSON.stringify(values), line).not.toContain('zquistbury');
    }
    // Lines that only look like them name nobody.
    // Nor do a service's accounts: a container's postgres, a deploy key's comment.
    const deployKey = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq3Zr8x7NvP2Wc9QmT4kLsY1uHdE6fJbA0oRi5gVtXy deploy@ci';
    for (const line of ['Logged in to the dashboard as an admin', 'uid=0(root) gid=0(root)', 'ssh-keygen -t ed25519 -C work@laptop', 'uid=999(pgwarden) gid=999(pgwarden)', `${deployKey}; deploy it`]) {
      const { out } = await redact(line);
      expect(out, line).toBe(line);
    }
  });

  it('finds home paths and usernames right after a terminal colour code, raw or written out', async () => {
    const esc = '\u001b';
    const { out } = await redact(
      `${esc}[90m/home/zorbwick/app${esc}[39m | printf "\\u001b[1m/Users/zorbwick\\033[0m" | ${esc}[1mC:\\Users\\zorbwick\\x | ${esc}[32mzorbwick${esc}[0m ok`,
      {},
      { cwds: ['/home/zorbwick/app'] },
    );
    expect(out).not.toContain('zorbwick');
    expect(out).toBe(`${esc}[90m~/app${esc}[39m | printf "\\u001b[1m~\\033[0m" | ${esc}[1m~\\x | ${esc}[32m[REDACTED:username]${esc}[0m ok`);
    // A letter that ends no escape sequence still makes it part of a word.
    expect((await redact('see https://qux.io/home/about and grandma/home/x')).out).toBe('see https://qux.io/home/about and grandma/home/x');
  });

  it('blanks a username right after an escaped slash: percent-encoded in a URL, \\u or \\x in JSON or code', async () => {
    const { out } = await redact(
      'open file%3A%2F%2F%2FUsers%2Fzorbwick%2Fa.ts, C%3A%5CUsers%5CZorbwick%5Cb, "\\u002Fhome\\u002Fzorbwick\\u002Fc", "\\x2Fhome\\x2Fzorbwick"',
      {},
      { cwds: ['/home/zorbwick/app'] },
    );
    expect(out.toLowerCase()).not.toContain('zorbwick');
    expect(out).toBe('open file%3A%2F%2F%2FUsers%2F[REDACTED:username]%2Fa.ts, C%3A%5CUsers%5C[REDACTED:username]%5Cb, "\\u002Fhome\\u002F[REDACTED:username]\\u002Fc", "\\x2Fhome\\x2F[REDACTED:username]"');
    // A hex-looking letter with no escape before it still makes a word: `cafe2Fzorbwick` keeps its tail.
    expect((await redact('id cafe2Fzorbwick', {}, { cwds: ['/home/zorbwick/app'] })).out).toBe('id cafe2Fzorbwick');
  });

  it('blanks a username or a name right after a written-out newline or tab (JSON text inside a string), not after an escaped backslash', async () => {
    const opts = { names: ['Qorvin Blastwell'] };
    const hints = { cwds: ['/home/zorbwick/app'] };
    const { out } = await redact('{"log":"line one\\nzorbwick wrote\\tzorbwick\\r\\nQorvin Blastwell signed"}', opts, hints);
    expect(out).toBe('{"log":"line one\\n[REDACTED:username] wrote\\t[REDACTED:username]\\r\\n[REDACTED:name] signed"}');
    // `\\nzorbwick` is a backslash, then the word `nzorbwick`.
    expect((await redact('dir C:\\\\nzorbwick', opts, hints)).out).toBe('dir C:\\\\nzorbwick');
  });

  it('learns the name in a home path written with escaped separators, and blanks it there', async () => {
    const forms = [
      'see %2FUsers%2Fvorpalix%2Fnotes',
      'tree?path=%2Fhome%2Fvorpalix%2Fnb.ipynb',
      'twice: %252FUsers%252Fvorpalix%252Fwork',
      'C%3A%5CUsers%5Cvorpalix%5Cx',
      '{"path":"\\/Users\\/vorpalix\\/work"}',
      '"\\u002Fhome\\u002Fvorpalix\\u002Fx"',
      '&#x2F;Users&#x2F;vorpalix&#x2F;work and &#47;home&#47;vorpalix&#47;x',
    ];
    // Each alone in its session: nothing else teaches the name.
    for (const text of forms) {
      const { out } = await redact(text);
      expect(out, text).not.toContain('vorpalix');
      expect(out, text).toContain('[REDACTED:username]');
    }
    // Escapes that are no path leave words alone: a page on `home` in a URL is no home folder.
    expect((await redact('https://qux.io/docs%2Fhome%2Fabout and 100%2Fday')).out).toBe('https://qux.io/docs%2Fhome%2Fabout and 100%2Fday');
  });

  it("learns another user's name from the shell's ~name/ and blanks it, but not from ~/, HEAD~2/ or prose", async () => {
    const { out } = await redact('cp ~vorpalix/notes.md . and see https://uni.example/~vorpalix/ (vorpalix wrote it)');
    expect(out).toBe('cp ~[REDACTED:username]/notes.md . and see https://uni.example/~[REDACTED:username]/ ([REDACTED:username] wrote it)');
    const plain = 'cd ~/work; git diff HEAD~2/ HEAD; about ~half done, ~twice as fast';
    expect((await redact(plain)).out).toBe(plain);
  });

  it("blanks a Mac's name made from its owner's, in any of the forms macOS writes it", async () => {
    const text = 'zq@Quorras-MacBook-Pro ~ %; Darwin Quorra-Vantablacks-MacBook-Air-2.local; ssh quorras-imac.local; ComputerName: Quorra’s MacBook Pro; Quorras-MBP.fritz.box';
    const { out, report } = await redact(text);
    expect(out).not.toMatch(/quorra|vantablack/i);
    expect(out).toBe('zq@[REDACTED:hostname] ~ %; Darwin [REDACTED:hostname#2].local; ssh [REDACTED:hostname#3].local; ComputerName: [REDACTED:hostname#5]; [REDACTED:hostname#4].fritz.box');
    expect(report.findings.find((f) => f.rule === 'hostname')?.count).toBe(5);
    const plain = 'builds for windows-mac and linux; tests-macos passed; my MacBook Pro; Apples-to-apples; the iMac';
    expect((await redact(plain)).out).toBe(plain);
  });

  it("blanks a Mac's name in lower case, as Bonjour and ssh write it", async () => {
    const { out } = await redact('ping quorras-mac-mini.local; ssh zq@quorra-vantablacks-mac-studio-2.local');
    expect(out).toBe('ping [REDACTED:hostname].local; ssh zq@[REDACTED:hostname#2].local');
  });

  it('a /home/ inside a URL is no home folder, but a known username in it is still blanked', async () => {
    const { out } = await redact('see https://qux.io/home/zorbwick/x and https://qux.io/home/about', {}, { cwds: ['/home/zorbwick'] });
    expect(out).toBe('see https://qux.io/home/[REDACTED:username]/x and https://qux.io/home/about');
  });

  it('keeps a username that is a common word, outside its path forms', async () => {
    const { out } = await redact('the user and admin at /home/user/app and /home/admin', {}, { cwds: ['/home/user/app'] });
    expect(out).toBe('the user and admin at ~/app and ~');
  });

  it('blanks a login that is an ordinary word in its encoded project folder, wherever a file name or path holds it, and leaves the word in prose', async () => {
    // Any login the bare-word rule leaves alone: picked at random, and one too short to be blanked bare. Not one with a
    // hyphen (`ec2-user`): in an encoded folder it cannot be told from the folder's next part, so its first part is the login.
    const common = [...COMMON_USERNAMES].filter((u) => /^[a-z0-9]+$/.test(u) && !NON_PERSONAL_HOMES.has(u));
    const short = Array.from({ length: 2 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
    for (const login of [common[Math.floor(Math.random() * common.length)], short]) {
      const folder = `-Users-${login}-dev-app`;
      const text = `${folder}/s1.jsonl:137; ~/.claude/projects/-home-${login}-x/a.jsonl; C--Users-${login}-src; /Users/${login}/dev; the ${login} in prose; my-home-${login}-x`;
      const { out } = await redact(text, {}, { projectFolders: [folder] });
      expect(out, login).toBe(`-Users-[REDACTED:username]-dev-app/s1.jsonl:137; ~/.claude/projects/-home-[REDACTED:username]-x/a.jsonl; C--Users-[REDACTED:username]-src; ~/dev; the ${login} in prose; my-home-${login}-x`);
    }
    // A folder that is no person's home stays as it is.
    expect((await redact('-Users-Shared-app/s.jsonl', {}, { projectFolders: ['-Users-Shared-app'] })).out).toBe('-Users-Shared-app/s.jsonl');
  });

  it('does not blank a username inside a longer word', async () => {
    const { out } = await redact('pete wrote competent code', { usernames: ['pete'] });
    expect(out).toBe('[REDACTED:username] wrote competent code');
  });

  it('derives candidate usernames from folders and cwds', () => {
    expect(usernamesFromFolder('-home-ada-work-api')).toEqual(['ada']);
    expect(usernamesFromFolder('-Users-ada')).toEqual(['ada']);
    expect(usernamesFromFolder('C--Users-ada-src')).toEqual(['ada']);
    expect(usernamesFromFolder('-srv-app')).toEqual([]);
    expect(usernamesFromCwds(['/home/ada/x', 'C:\\Users\\bob\\y', '/Users/ada', '/srv/z'])).toEqual(['ada', 'bob']);
    expect(usernamesFromCwds(['C:\\Users\\Ada Lovelace\\src', 'C:\\Users\\Ada Lovelace'])).toEqual(['Ada Lovelace']);
  });

  it('redacts project folder names', () => {
    expect(redactProjectFolder('-home-ada-work-api', ['ada'])).toBe('-work-api');
    expect(redactProjectFolder('-home-ada-lovelace-work', ['ada.lovelace'])).toBe('-work');
    expect(redactProjectFolder('-Users-ada', [])).toBe('-home');
    expect(redactProjectFolder('-home-ada-ada-notes', ['ada'])).toBe('-user-notes');
    expect(redactProjectFolder('-srv-app', ['ada'])).toBe('-srv-app');
    expect(redactProjectFolder('C--Users-Ada-Lovelace-src', ['Ada Lovelace'])).toBe('-src');
  });

  it("knows a folder's home by the cwd that names it, and every form the name takes", () => {
    expect(homeNameOf('-Users-ada-lovelace-x', ['/Users/ada.lovelace/x'])).toBe('ada.lovelace');
    expect(homeNameOf('C--Users-Ada-Lovelace-x', ['C:\\Users\\Ada Lovelace\\x'])).toBe('Ada Lovelace');
    expect(homeNameOf('-Users-ada-lovelace-x', ['/Users/bob/x', '/srv/x'])).toBeUndefined();
    expect(homeNameOf('-srv-x', ['/Users/ada/x'])).toBeUndefined();
    expect(usernameForms('ada.lovelace')).toEqual(['ada.lovelace', 'ada-lovelace']);
    expect(usernameForms('Ada Lovelace')).toEqual(['Ada Lovelace', 'Ada-Lovelace', 'Ada', 'Lovelace']);
    expect(usernameForms('ada')).toEqual(['ada']);
  });

  it("decodes a folder without a cwd by its home's real name", () => {
    expect(decodeProjectFolder('-Users-ada-lovelace-x-y', 'ada.lovelace')).toBe('/Users/ada.lovelace/x/y');
    expect(decodeProjectFolder('-home-ada-lovelace', 'ada.lovelace')).toBe('/home/ada.lovelace');
    expect(decodeProjectFolder('-Users-ada-lovelace-x')).toBe('/Users/ada/lovelace/x');
    expect(decodeProjectFolder('-Users-adam-x', 'ada')).toBe('/Users/adam/x');
  });
});

describe('options', () => {
  it('extra patterns, allowlist and names', async () => {
    const { out } = await redact(`ticket ACME-123456 by Ada Lovelace (ada lovelace) key ${AKIA} and ${GHP}`, {
      extraPatterns: [{ name: 'Ticket Id', pattern: 'ACME-\\d{6}' }],
      allowlist: [AKIA],
      names: ['Ada Lovelace'],
    });
    expect(out).toBe(`ticket [REDACTED:ticket-id] by [REDACTED:name] ([REDACTED:name]) key ${AKIA} and [REDACTED:github-token]`);
  });

  it('rejects an invalid extra pattern with its name', () => {
    expect(() => createRedactor({ extraPatterns: [{ name: 'broken', pattern: '(' }] })).toThrow(/broken/);
  });

  it('drops images, thinking and tool output when asked', async () => {
    const entry = {
      type: 'assistant',
      message: { content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'hi' }, { type: 'image', source: { type: 'base64', data: 'AAAA' } }] },
    };
    const user = { type: 'user', message: { content: [{ type: 'tool_result', content: 'secret output' }] }, toolUseResult: { stdout: 'x' } };
    const values: unknown[] = [entry, user];
    await createRedactor({ dropImages: true, dropThinking: true, dropToolOutput: true }).redactSession(values);
    const out = JSON.stringify(values);
    expect(out).not.toContain('hmm');
    expect(out).not.toContain('AAAA');
    expect(out).not.toContain('secret output');
    expect(out).not.toContain('toolUseResult');
    expect(out).toContain('"text":"hi"');
  });
});

describe('images', () => {
  const png = png3x2([pngChunk('tEXt', 'Author\0Ada Lovelace')]).toString('base64');
  const jpeg = jpegWith([jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff([{ tag: 0x013b, ascii: 'Ada Lovelace' }])]))]).toString('base64');

  it('lose their metadata wherever a session holds them: content blocks, a file read, an attachment', async () => {
    const values: unknown[] = [
      { type: 'user', message: { content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } }] } },
      { type: 'user', toolUseResult: { type: 'image', file: { base64: jpeg, type: 'image/jpeg' } } },
      { type: 'attachment', attachment: { type: 'edited_image_file', content: { type: 'image', data: png } } },
    ];
    const report = await createRedactor().redactSession(values);
    const payloads = JSON.stringify(values).match(/"(?:data|base64)":"([^"]+)"/g)!.map((m) => Buffer.from(m.split('":"')[1].slice(0, -1), 'base64'));
    expect(payloads).toHaveLength(3);
    for (const bytes of payloads) expect(bytes.toString('latin1')).not.toContain('Ada Lovelace');
    expect(payloads[0].equals(png3x2())).toBe(true);
    expect(report.findings.find((f) => f.rule === 'image-metadata')).toMatchObject({ count: 3, samples: ['PNG: tEXt', 'JPEG: EXIF'] });
  });

  it('that cannot be read are emptied and counted, not published as they are', async () => {
    const cut = png3x2([pngChunk('tEXt', 'Author\0Ada Lovelace')]).subarray(0, 60).toString('base64');
    const values: unknown[] = [{ message: { content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: cut } }] } }];
    const report = await createRedactor().redactSession(values);
    expect(JSON.stringify(values)).toContain('"data":""');
    expect(report.findings.find((f) => f.rule === 'image-unreadable')?.count).toBe(1);
  });

  it('leave other binary payloads (a PDF) as they are: pages never show them', async () => {
    const pdf = Buffer.from('%PDF-1.7 Ada Lovelace').toString('base64');
    const values: unknown[] = [{ source: { type: 'base64', media_type: 'application/pdf', data: pdf } }];
    const report = await createRedactor().redactSession(values);
    expect((values[0] as { source: { data: string } }).source.data).toBe(pdf);
    expect(report.total).toBe(0);
  });
});

describe('placeholders', () => {
  it('are stable within a session and numbered per distinct value', async () => {
    const other = 'ghp_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8';
    const values: unknown[] = [`a ${GHP}`, `b ${other}`, { k: `c ${GHP}` }];
    const redactor = createRedactor();
    await redactor.redactSession(values);
    expect(values).toEqual(['a [REDACTED:github-token]', 'b [REDACTED:github-token#2]', { k: 'c [REDACTED:github-token]' }]);
    expect(redactor.redactText(`again ${other}`)).toBe('again [REDACTED:github-token#2]');
  });

  it('redacts path-like object keys but leaves base64 image data untouched', async () => {
    const values: unknown[] = [{ snapshot: { '/home/zorbwick/a.ts': 1, plain: 2 } }, { source: { type: 'base64', data: 'L2hvbWUvem9yYndpY2s=/home/zorbwick' } }];
    await createRedactor().redactSession(values);
    expect(values[0]).toEqual({ snapshot: { '~/a.ts': 1, plain: 2 } });
    expect((values[1] as { source: { data: string } }).source.data).toBe('L2hvbWUvem9yYndpY2s=/home/zorbwick');
  });

  it('redacts a secret or a name that is an object key, and leaves field names alone', async () => {
    // A structured tool result can key a map by token or by author; a login that equals a field name must not rename the field.
    const values: unknown[] = [
      { cwd: '/home/type/x', type: 'user', toolUseResult: { structuredContent: { [GHP]: 'prod', 'Ada Lovelace': 3, type: 'map' } } },
      { message: 'git log --format=%an: Ada Lovelace' },
    ];
    const redactor = createRedactor({ names: ['Ada Lovelace'] });
    const report = await redactor.redactSession(values, { cwds: ['/home/type/x'] });
    expect(redactor.knownUsernames()).toContain('type');
    const first = values[0] as { type: string; toolUseResult: { structuredContent: Record<string, unknown> } };
    expect(Object.keys(first.toolUseResult.structuredContent)).toEqual(['[REDACTED:github-token]', '[REDACTED:name]', 'type']);
    expect(first.type).toBe('user');
    expect(JSON.stringify(values)).not.toMatch(/ghp_|Lovelace/);
    expect(report.findings.find((f) => f.rule === 'github-token')?.count).toBe(1);
  });
});

describe('a session of many secrets', () => {
  it('redacts thousands of tokens that are prefixes of each other, whole, without ending the process', async () => {
    // One Slack token of every length: as one trie they nest past what V8 compiles (it aborts, no exception to catch).
    const tail = Array.from({ length: 3_000 }, (_, i) => 'aB3dE5gH7jK9mN2pQ4sT6vW8yZ'[i % 26]).join('');
    const values: unknown[] = Array.from({ length: tail.length - 20 }, (_, i) => `token xoxb-${tail.slice(0, 21 + i)} end`);
    const report = await createRedactor().redactSession(values);
    expect(report.findings.find((f) => f.rule === 'slack-token')?.count).toBe(values.length);
    expect(values.every((v, i) => v === `token [REDACTED:slack-token${i ? `#${i + 1}` : ''}] end`)).toBe(true);
  });
});

describe("a password in a tool's flag", () => {
  // Each of these is found by its tool's own rule (src/lib/redact/formats.ts), which runs only where the words it needs are.
  const cases: Array<[string, string]> = [
    ['redis-cli -h cache.local -a Hq7zXp-2Lm PING', 'Hq7zXp-2Lm'],
    ['podman login registry.qux.io -u ci -p Hq7zXp-2Lm', 'Hq7zXp-2Lm'],
    ['7z a -pHq7zXp2Lm backup.7z notes/', 'Hq7zXp2Lm'],
    ['unzip -P Qx8wVb3Nk archive.zip', 'Qx8wVb3Nk'],
    ['unrar x -pQx8wVb3Nk archive.rar', 'Qx8wVb3Nk'],
    ['openssl enc -d -aes-256-cbc -pass pass:Hq7zXp-2Lm -in a.enc', 'Hq7zXp-2Lm'],
    ['smbclient //nas/share -U backup%Hq7zXp-2Lm', 'Hq7zXp-2Lm'],
    ['pg_restore "host=db user=app password=Hq7zXp-2Lm dbname=shop" dump.sql', 'Hq7zXp-2Lm'],
    ['mongosh mongodb://db/admin -u root -p Hq7zXp-2Lm', 'Hq7zXp-2Lm'],
    ['nmcli dev wifi connect HomeNet password Hq7zXp-2Lm', 'Hq7zXp-2Lm'],
    ['wpa_passphrase HomeNet Hq7zXp-2Lm', 'Hq7zXp-2Lm'],
    ['htpasswd -b .htpasswd admin Hq7zXp-2Lm', 'Hq7zXp-2Lm'],
  ];
  for (const [text, secret] of cases) {
    it(`${text.split(' ')[0]}: ${text}`, async () => {
      const { out } = await redact(`ran: ${text}\nand it worked`);
      expect(out).not.toContain(secret);
      expect(out).toContain('[REDACTED:');
    });
  }
  it('leaves the words alone where no password follows them', async () => {
    const plain = 'login page; zip the logs with -p; mongo docs; redis-cli -a; smbclient -U guest; openssl version';
    expect((await redact(plain)).out).toBe(plain);
  });
});

describe('the whole class of credentials (issue 25)', () => {
  // Invented values, shaped like the real ones.
  const cases: Array<[string, string, string]> = [
    ['any name with secret in it', 'SECRET_KEY=q8Zr3vN1xLp0sW7e', 'q8Zr3vN1xLp0sW7e'],
    ['a name with pass in it', 'DB_PASS=Hx7qpl2Wz', 'Hx7qpl2Wz'],
    ['a key that is not an api key', 'ENCRYPTION_KEY=9f8e7d6c5b4a39281706f5e4d3c2b1a0', '9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
    ['YAML', 'JWT_SECRET_KEY: "aZ3kq9Lm0pQx7Rt2"', 'aZ3kq9Lm0pQx7Rt2'],
    ['letters-only password', 'password: correcthorsebatterystaple', 'correcthorsebatterystaple'],
    ['curl -u', 'curl -u admin:Tr0ub4dor3 https://x.qux.io', 'Tr0ub4dor3'],
    ['mysql -p glued', 'mysql -uroot -pS3cr3tPw shop', 'S3cr3tPw'],
    ['sshpass -p', 'sshpass -p Pa55w0rd ssh host', 'Pa55w0rd'],
    ['--password=', 'tool --password=Zorb-81quix', 'Zorb-81quix'],
    ['.netrc', 'machine api.qux.io login deploy password Zorb-81quix', 'Zorb-81quix'],
    ['.pgpass', 'db.internal:5432:shop:app_rw:Zorb-81quix', 'Zorb-81quix'],
    ['Azure AccountKey', 'AccountName=a;AccountKey=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmE9PQ==;EndpointSuffix=x', 'Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmE9PQ=='],
    ['SAS sig=', 'https://a.blob.core.windows.net/c/f?sv=2022-11-02&sp=r&sig=Zk9vYmFyQmF6cXV4%2BZm9v%3D', 'Zk9vYmFyQmF6cXV4%2BZm9v%3D'],
    ['docker auth', '{"auths":{"r.qux.io":{"auth":"Y2k6U2VjcmV0LTEyMyFhYmNk"}}}', 'Y2k6U2VjcmV0LTEyMyFhYmNk'],
    ['git extraheader basic', 'AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX2FiY2RlZg==', 'eC1hY2Nlc3MtdG9rZW46Z2hzX2FiY2RlZg=='],
    ['lower-case authorization: token', 'authorization: token 0123456789abcdef0123456789abcdef01234567', '0123456789abcdef0123456789abcdef01234567'],
    ['Okta SSWS', 'Authorization: SSWS 00aBcD3fGhIjKlMnOpQrStUvWxYz0123456789AbCd', '00aBcD3fGhIjKlMnOpQrStUvWxYz0123456789AbCd'],
    ['query ?access_token=', 'https://api.qux.io/v1?access_token=abcDEF123456ghiJKL', 'abcDEF123456ghiJKL'],
    ['AGE secret key', `AGE-SECRET-KEY-1${'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'.repeat(2).slice(0, 58)}`, `AGE-SECRET-KEY-1${'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'.repeat(2).slice(0, 58)}`],
    ['Telegram bot token', 'bot 1234567890:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0 ok', '1234567890:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0'],
    ['Mailgun', 'api key-3af6c0d2e1b4a5968778695a4b3c2d1e ok', 'key-3af6c0d2e1b4a5968778695a4b3c2d1e'],
    ['Postman', 'PMAK-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01', 'PMAK-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01'],
    // Rare draws of random values that once slipped through (found by generating the formats a thousand times).
    ['one hint inside another (`SG.` of SendGrid before `.atlasv1.`)', `Qm7Zp2LkWx9vSG.atlasv1.${'k3R_t8Yq-Vb2Nw5Hc'.repeat(4)}`, `Qm7Zp2LkWx9vSG.atlasv1.${'k3R_t8Yq-Vb2Nw5Hc'.repeat(4)}`],
    ['a random key of capitals only', 'access_key: QWRTZPLMKVBXNCJHGFDS', 'QWRTZPLMKVBXNCJHGFDS'],
    ['a password that opens like a placeholder', 'db.internal:5432:shop:app_rw:Xxxqrt-512#plmk', 'Xxxqrt-512#plmk'],
    ['a bearer token that opens like a placeholder word', 'Authorization: Bearer bAr_Qz7-kLm2NpX9rTs4VwY6zA1bC3dE5fG7hJ9', 'bAr_Qz7-kLm2NpX9rTs4VwY6zA1bC3dE5fG7hJ9'],
  ];
  for (const [kind, text, secret] of cases) {
    it(`${kind}: redacted whole`, async () => {
      const { out, report } = await redact(text);
      expect(out, kind).not.toContain(secret);
      expect(out, kind).toMatch(/\[REDACTED:[a-z0-9-]+\]/);
      expect(report.total, kind).toBeGreaterThan(0);
    });
  }

  it("every generated credential on a line of a file as Read's result numbers it (`     2→`, or a tab before 2.0), with no other copy of the file", async () => {
    for (const separator of ['→', '\t']) {
      for (const c of generateCredentials()) {
        const { out } = await redact(`     1${separator}# settings\n     2${separator}${c.snippet.replace(/\n/g, `\n     3${separator}`)}\n     4${separator}# end\n`);
        for (const secret of c.secrets) expect(out, `${c.format} after ${JSON.stringify(separator)}`).not.toContain(secret);
      }
    }
  });

  it('near misses stay: a placeholder a GitHub export broke up, a grammar that reads like curl -u, a date before colons', async () => {
    const keep = [
      'https://api.qux.io/v1/export?access_token=[REDACTED:github-token#\u200b2] (expired)',
      'n(?:-unique|ot)|o(?:pen|therwise|ver)|p(?:ivot|rofile)',
      'archive.zip<TAB>sha1<TAB>2024-12-01T09:00:00',
      'docker run -p 8080:80 -u 1000:1000 node',
      'mkdir -p build && ssh -p 2222 host',
      'api_key: Your_Api_Key_Here',
      'API_TOKEN=BAR-TOKEN-VALUE',
      'password: XXX-XXX-XXX',
      'ACCESS_KEY: READWRITEEVERYTHING',
    ];
    for (const text of keep) {
      const { out, report } = await redact(text);
      expect(out, text).toBe(text);
      expect(report.total, text).toBe(0);
    }
  });
});

describe('remote control links', () => {
  it('redacts the session part of a Remote Control link, and leaves other claude.ai addresses alone', async () => {
    const id = 'session_01Hq7ZkTmW3xYpR8vN2bC4dF';
    const { out } = await redact(`/remote-control is active: https://claude.ai/code/${id}?bridge=7Kx2 — docs at https://claude.ai/code and https://claude.ai/code/new`);
    expect(out).not.toContain(id);
    expect(out).not.toContain('bridge=7Kx2');
    expect(out).toContain('https://claude.ai/code/[REDACTED:remote-control-url');
    expect(out).toContain('docs at https://claude.ai/code and https://claude.ai/code/new');
  });
});
