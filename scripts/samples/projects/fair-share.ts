/**
 * fair-share, the TypeScript CLI of the first two samples: its files when the
 * first session starts, the files and edits that session makes, and the
 * project as the second session finds it (it starts where the first ended).
 */
import { createProject, lines, type Project } from '../dsl/project.js';
import { applyOnce } from '../dsl/tool-calls.js';

export const FAIR_SHARE_CWD = '/home/demo/projects/fair-share';

/** The source files a Grep over `src` looks at. */
export const FAIR_SHARE_SOURCES = ['src/cli.ts', 'src/ledger.ts', 'src/balances.ts', 'src/format.ts'];

// ---------------------------------------------------------------------------
// The files before the first session

const LEDGER_TS = `import { readFile } from 'node:fs/promises';

/** One shared expense: who paid, how much (in cents), and who it was for. */
export interface Expense {
  paidBy: string;
  amountCents: number;
  splitAmong: string[];
  note?: string;
}

/**
 * Parses a ledger file. Each non-empty line looks like
 *   ana 42.50 ana,ben,chen   # groceries
 */
export function parseLedger(text: string): Expense[] {
  const expenses: Expense[] = [];
  for (const [index, raw] of text.split('\\n').entries()) {
    const [body = '', note] = raw.split('#', 2);
    const line = body.trim();
    if (line === '') continue;
    const [paidBy, amount, people] = line.split(/\\s+/);
    if (!paidBy || !amount || !people) {
      throw new Error(\`line \${index + 1}: expected "<payer> <amount> <people>"\`);
    }
    expenses.push({
      paidBy,
      amountCents: toCents(amount),
      splitAmong: people.split(','),
      note: note?.trim(),
    });
  }
  return expenses;
}

/** "42.5" → 4250. Reads the decimal string directly, so no float ever touches the money. */
export function toCents(amount: string): number {
  const match = /^(\\d+)(?:\\.(\\d{1,2}))?$/.exec(amount);
  if (!match) throw new Error(\`not an amount: \${amount}\`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export async function loadLedger(path: string): Promise<Expense[]> {
  return parseLedger(await readFile(path, 'utf8'));
}
`;

const BALANCES_TS = `import type { Expense } from './ledger.js';

/** Net balance per person in cents: positive means the group owes them money. */
export function balances(expenses: Expense[]): Map<string, number> {
  const net = new Map<string, number>();
  const add = (who: string, cents: number) => net.set(who, (net.get(who) ?? 0) + cents);
  for (const e of expenses) {
    add(e.paidBy, e.amountCents);
    const share = Math.floor(e.amountCents / e.splitAmong.length);
    let leftover = e.amountCents - share * e.splitAmong.length;
    for (const person of e.splitAmong) {
      // The first people in the list absorb the leftover cents, so shares add up exactly.
      add(person, -(share + (leftover-- > 0 ? 1 : 0)));
    }
  }
  return net;
}
`;

const FORMAT_TS = `/** 4250 → "42.50", -5 → "-0.05" */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return \`\${sign}\${Math.floor(abs / 100)}.\${String(abs % 100).padStart(2, '0')}\`;
}
`;

const CLI_TS = `#!/usr/bin/env node
import { balances } from './balances.js';
import { formatCents } from './format.js';
import { loadLedger } from './ledger.js';

const USAGE = 'usage: fair-share balances <ledger-file>';

async function main(argv: string[]): Promise<number> {
  const [command, file] = argv;
  if (!command || !file) {
    console.error(USAGE);
    return 2;
  }
  const expenses = await loadLedger(file);
  switch (command) {
    case 'balances': {
      for (const [person, cents] of balances(expenses)) {
        console.log(\`\${person.padEnd(8)} \${formatCents(cents).padStart(8)}\`);
      }
      return 0;
    }
    default:
      console.error(\`unknown command: \${command}\\n\${USAGE}\`);
      return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
`;

const LEDGER_TEST_TS = `import { describe, expect, it } from 'vitest';
import { balances } from '../src/balances.js';
import { parseLedger, toCents } from '../src/ledger.js';

describe('ledger', () => {
  it('reads amounts as integer cents', () => {
    expect(toCents('42')).toBe(4200);
    expect(toCents('42.5')).toBe(4250);
    expect(toCents('0.07')).toBe(7);
  });

  it('rejects amounts with more than two decimals', () => {
    expect(() => toCents('1.005')).toThrow(/not an amount/);
  });

  it('keeps the note after #', () => {
    const [expense] = parseLedger('ana 12.00 ana,ben  # bakery\\n');
    expect(expense).toEqual({ paidBy: 'ana', amountCents: 1200, splitAmong: ['ana', 'ben'], note: 'bakery' });
  });

  it('balances always sum to zero', () => {
    const net = balances(parseLedger('ana 10.00 ana,ben,chen\\nben 3.01 ana,chen\\n'));
    expect([...net.values()].reduce((a, b) => a + b, 0)).toBe(0);
  });
});
`;

const TRIP_LEDGER = `# A weekend in the mountains
ana   126.40  ana,ben,chen,dee   # cabin groceries
ben    84.00  ana,ben,chen,dee   # fuel
chen   31.75  chen,dee           # trail snacks
dee    60.00  ana,ben,chen,dee   # firewood and matches
ana    18.20  ana,ben            # coffee stop
`;

const FAIR_SHARE_PACKAGE_JSON = `{
  "name": "fair-share",
  "version": "0.3.0",
  "description": "Split shared expenses without rounding drift",
  "type": "module",
  "bin": { "fair-share": "dist/cli.js" },
  "scripts": {
    "build": "tsc -p tsconfig.build.json",
    "test": "vitest run"
  },
  "devDependencies": {
    "@types/node": "^22.10.0",
    "tsx": "^4.19.2",
    "typescript": "^5.7.2",
    "vitest": "^4.0.18"
  }
}
`;

// ---------------------------------------------------------------------------
// What the first session writes: settle() and its tests, then four edits of the CLI

export const SETTLE_TS = `/** One transfer from someone who owes money to someone who is owed. */
export interface Payment {
  from: string;
  to: string;
  amountCents: number;
}

interface Party {
  name: string;
  cents: number;
}

/**
 * Turns net balances into a list of payments that evens everyone out.
 *
 * Greedy: the largest debtor pays the largest creditor until one of them is
 * square. That needs at most n - 1 payments, which is what people expect
 * after a trip; the true minimum is NP-hard and not worth the wait.
 * Everything stays in integer cents, so the payments add up exactly.
 */
export function settle(net: Map<string, number>): Payment[] {
  const debtors: Party[] = [];
  const creditors: Party[] = [];
  for (const [name, cents] of net) {
    if (cents < 0) debtors.push({ name, cents: -cents });
    if (cents > 0) creditors.push({ name, cents });
  }
  // Ties broken by name so the output is stable from run to run.
  const largestFirst = (a: Party, b: Party) => b.cents - a.cents || a.name.localeCompare(b.name);

  const payments: Payment[] = [];
  while (debtors.length > 0 && creditors.length > 0) {
    debtors.sort(largestFirst);
    creditors.sort(largestFirst);
    const debtor = debtors[0]!;
    const creditor = creditors[0]!;
    const amountCents = Math.min(debtor.cents, creditor.cents);
    payments.push({ from: debtor.name, to: creditor.name, amountCents });
    debtor.cents -= amountCents;
    creditor.cents -= amountCents;
    if (debtor.cents === 0) debtors.shift();
    if (creditor.cents === 0) creditors.shift();
  }
  return payments;
}
`;

export const SETTLE_TEST_TS = `import { describe, expect, it } from 'vitest';
import { balances } from '../src/balances.js';
import { parseLedger } from '../src/ledger.js';
import { settle } from '../src/settle.js';

const paidIn = (ledger: string) => settle(balances(parseLedger(ledger)));

describe('settle', () => {
  it('returns no payments when everyone is square', () => {
    expect(paidIn('ana 10.00 ana\\n')).toEqual([]);
  });

  it('lets the largest debtor pay the largest creditor first', () => {
    const net = new Map([['ana', 3000], ['ben', -1000], ['chen', -2000]]);
    expect(settle(net)).toEqual([
      { from: 'chen', to: 'ana', amountCents: 2000 },
      { from: 'ben', to: 'ana', amountCents: 1000 },
    ]);
  });

  it('adds 0.10 and 0.20 up to exactly 0.30', () => {
    expect(paidIn('ana 0.10 ben\\nana 0.20 ben\\n')).toEqual([{ from: 'ben', to: 'ana', amountCents: 30 }]);
  });

  it('keeps every cent when an amount does not split evenly', () => {
    const payments = paidIn('ana 10.00 ana,ben,chen\\n');
    expect(payments.reduce((sum, p) => sum + p.amountCents, 0)).toBe(666);
  });

  it('needs at most n - 1 payments', () => {
    const ledger = 'ana 50 ana,ben,chen,dee,eli\\nben 20 ben,chen\\ndee 7.35 ana,eli\\n';
    expect(paidIn(ledger).length).toBeLessThanOrEqual(4);
  });
});
`;

export const CLI_IMPORT_SETTLE: [string, string] = [
  lines("import { loadLedger } from './ledger.js';", '', "const USAGE = 'usage: fair-share balances <ledger-file>';"),
  lines(
    "import { loadLedger } from './ledger.js';",
    "import { settle } from './settle.js';",
    '',
    "const USAGE = 'usage: fair-share <balances|settle> <ledger-file>';",
  ),
];

export const CLI_SETTLE_CASE: [string, string] = [
  lines('      return 0;', '    }', '    default:'),
  lines(
    '      return 0;',
    '    }',
    "    case 'settle': {",
    '      for (const p of settle(balances(expenses))) {',
    '        console.log(`${p.from} → ${p.to}: ${formatCents(p.amount)}`);',
    '      }',
    '      return 0;',
    '    }',
    '    default:',
  ),
];

export const CLI_SETTLE_FIX: [string, string] = ['formatCents(p.amount)', 'formatCents(p.amountCents)'];

export const CLI_SETTLE_JSON: [string, string] = [
  lines(
    "    case 'settle': {",
    '      for (const p of settle(balances(expenses))) {',
    '        console.log(`${p.from} → ${p.to}: ${formatCents(p.amountCents)}`);',
    '      }',
    '      return 0;',
    '    }',
  ),
  lines(
    "    case 'settle': {",
    '      const payments = settle(balances(expenses));',
    "      if (argv.includes('--json')) {",
    '        console.log(JSON.stringify(payments, null, 2));',
    '        return 0;',
    '      }',
    '      for (const p of payments) {',
    '        console.log(`${p.from} → ${p.to}: ${formatCents(p.amountCents)}`);',
    '      }',
    '      return 0;',
    '    }',
  ),
];

/** The project as the first session finds it. */
export function fairShareProject(): Project {
  return createProject(FAIR_SHARE_CWD, {
    'package.json': FAIR_SHARE_PACKAGE_JSON,
    'src/cli.ts': CLI_TS,
    'src/ledger.ts': LEDGER_TS,
    'src/balances.ts': BALANCES_TS,
    'src/format.ts': FORMAT_TS,
    'test/ledger.test.ts': LEDGER_TEST_TS,
    'examples/trip.ledger': TRIP_LEDGER,
  });
}

/** The project as the first session leaves it, where the second one starts. */
export function fairShareAfterSettle(): Project {
  const project = fairShareProject();
  for (const [o, n] of [CLI_IMPORT_SETTLE, CLI_SETTLE_CASE, CLI_SETTLE_FIX, CLI_SETTLE_JSON]) {
    project.write('src/cli.ts', applyOnce(project.read('src/cli.ts'), o, n, 'src/cli.ts'));
  }
  project.write('src/settle.ts', SETTLE_TS);
  project.write('test/settle.test.ts', SETTLE_TEST_TS);
  return project;
}
