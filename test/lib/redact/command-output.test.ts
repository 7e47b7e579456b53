import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { printedKinds, printedSecrets, printedValues, printsSecret } from '../../../src/lib/redact/command-output.js';
import { createRedactor } from '../../../src/lib/redact/index.js';

/** A tool call and its result as Claude Code writes them: the call in an assistant entry, the result and its stdout in a user entry. */
function exchange(id: string, command: string, output: string): unknown[] {
  return [
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command, description: 'run it' } }] } },
    {
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: output }] }] },
      toolUseResult: { stdout: output, stderr: '', interrupted: false },
    },
  ];
}

const secret = () => `Zx9${randomBytes(18).toString('base64url')}`;

describe('secrets printed bare by a command', () => {
  it('knows the commands that print a secret and nothing else', () => {
    for (const c of [
      'gh auth token',
      'security find-generic-password -s deploy -a ci -w',
      'op read "op://Private/db/password"',
      'vault kv get -field=password secret/db',
      'doppler secrets get DB_PASSWORD --plain',
      "kubectl get secret db -o jsonpath='{.data.password}' | base64 -d",
      'aws secretsmanager get-secret-value --secret-id prod/db --query SecretString --output text',
      'gcloud secrets versions access latest --secret=db',
      'pass show work/db',
      'printenv DB_PASSWORD',
      'echo "$OPENROUTER_API_KEY"',
      'echo ${GITHUB_TOKEN} | wc -c',
    ]) {
      expect(printsSecret(c), c).toBe(true);
    }
    for (const c of ['echo $HOME', 'printenv PATH', 'gh auth status', 'kubectl get secrets', 'vault kv get secret/db', 'echo "set the TOKEN first"', 'op item list', 'ls -la']) {
      expect(printsSecret(c), c).toBe(false);
    }
  });

  it('redacts the lines such a command printed, in its result and its stdout, wherever they appear again', async () => {
    const [a, b, c] = [secret(), secret(), secret()];
    const values: unknown[] = [
      ...exchange('toolu_1', 'security find-generic-password -s deploy -w', `${a}\n`),
      ...exchange('toolu_2', 'printenv DB_PASSWORD', b),
      ...exchange('toolu_3', 'ls', c),
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `The password is ${a}; the other one ${b}.` }] } },
    ];
    expect(printedSecrets(values).sort()).toEqual([a, b].sort());
    const report = await createRedactor().redactSession(values);
    const text = JSON.stringify(values);
    expect(text).not.toContain(a);
    expect(text).not.toContain(b);
    // Output of a command that prints no secret stays, however it looks.
    expect(text).toContain(c);
    expect(report.findings.find((f) => f.rule === 'command-output')?.count).toBeGreaterThanOrEqual(6);
  });

  it('keeps the lines of such an output that cannot be a secret: messages, tables, placeholders', () => {
    const values = exchange('toolu_9', 'op item get db --reveal', 'Error: no item matched "db" in any vault\nxxxxxxxx\nok\nlabel      value\n');
    expect(printedSecrets(values)).toEqual([]);
  });
});

describe('a person printed bare by a command', () => {
  it('knows the commands that print a name or a login, and not the ones that set or merely mention them', () => {
    const kinds = (c: string) => [...printedKinds(c)].sort();
    for (const c of ['git config user.name', 'git config --global user.name', 'git config --get user.name && git status', 'git log -1 --format=%an', "git log --pretty='%aN' | sort -u", 'git show -s --format=%cn HEAD', 'git shortlog -sn', 'id -F']) {
      expect(kinds(c), c).toEqual(['name']);
    }
    for (const c of ['whoami', 'id -un', 'logname', 'echo $USER', 'printenv LOGNAME', 'gh api user --jq .login']) {
      expect(kinds(c), c).toEqual(['username']);
    }
    expect(kinds('whoami; git config user.name; gh auth token')).toEqual(['name', 'secret', 'username']);
    for (const c of ['git config user.name "Ada Lovelace"', 'git config --global user.name Ada', 'git log --format="%an <%ae>"', 'git log --oneline', 'id -u', 'echo $HOME', 'grep -r whoamiHandler src', 'gh api repos/x/y']) {
      expect(kinds(c), c).toEqual([]);
    }
  });

  it('blanks the name and the login such a command printed, wherever they appear again', async () => {
    const values: unknown[] = [
      ...exchange('toolu_1', 'git config user.name', 'Zelda Quistbury\n'),
      ...exchange('toolu_2', 'whoami', 'zquistbury\n'),
      ...exchange('toolu_3', 'git shortlog -sn', '    12\tZelda Quistbury\n     3\tOrla Mbeki-Thorne\n'),
      ...exchange('toolu_4', 'git config --global user.name', 'error: could not lock config file\n'),
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Committed as Zelda Quistbury (zquistbury), reviewed by Orla Mbeki-Thorne.' }] } },
    ];
    const printed = printedValues(values);
    expect(printed.name.sort()).toEqual(['Orla Mbeki-Thorne', 'Zelda Quistbury']);
    expect(printed.username).toEqual(['zquistbury']);
    expect(printed.secret).toEqual([]);
    await createRedactor().redactSession(values);
    const text = JSON.stringify(values);
    expect(text).not.toMatch(/Zelda|Quistbury|zquistbury|Mbeki/);
    // What only looks like output of such a command stays.
    expect(text).toContain('error: could not lock config file');
    expect(text).toContain('Committed as [REDACTED:name] ([REDACTED:username]), reviewed by [REDACTED:name].');
  });
});
