import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { printedSecrets, printsSecret } from '../../../src/lib/redact/command-output.js';
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
