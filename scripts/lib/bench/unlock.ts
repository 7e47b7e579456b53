/**
 * `tsx scripts/lib/bench/unlock.ts SITE PASSWORD [--rate 4] [--runs 5]`
 *
 * How long an encrypted site (built into SITE) takes to unlock in Chromium:
 * from submitting the password to the status "Unlocked" (Argon2id in the
 * worker, then the slot), and to the index shown through the service worker,
 * with the CPU slowed `--rate` times (CDP Emulation.setCPUThrottlingRate, a
 * stand-in for a phone). Each run in a fresh browser context. Prints the
 * median and the spread. For the note of issue 29; not a test.
 */
import { parseArgs } from 'node:util';
import { launchBrowser } from '../../../test/helpers/browser.js';
import { serveStatic } from '../../../test/helpers/serve.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rate: { type: 'string', default: '4' }, runs: { type: 'string', default: '5' } } });
const [site, password] = positionals;
if (!site || !password) throw new Error('usage: unlock.ts SITE PASSWORD [--rate 4] [--runs 5]');
const server = await serveStatic(site, '/', { notFoundPage: true });
const browser = await launchBrowser();
const derive: number[] = [];
const shown: number[] = [];
for (let i = 0; i < Number(values.runs); i++) {
  const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(values.rate) });
  await page.goto(server.url);
  await page.locator('[data-unlock-form]:not([hidden])').waitFor();
  await page.fill('[data-unlock-password]', password);
  const t0 = Date.now();
  await page.click('[data-unlock-form] button');
  await page.waitForFunction(() => /Unlocked/.test(document.querySelector('[data-unlock-status]')?.textContent ?? ''), null, { timeout: 60_000, polling: 10 });
  derive.push(Date.now() - t0);
  await page.locator('.session-list, [data-transcript]').first().waitFor({ timeout: 60_000 });
  shown.push(Date.now() - t0);
  await context.close();
}
// Chromium's throttling slows the page's main thread, not (as measured here) a dedicated worker: the same
// Argon2id is also timed on the main thread of a throttled page, the worker's script loaded into it.
const mainThread: number[] = [];
{
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const slots = JSON.parse(await readFile(join(site, 'unlock', 'keys.json'), 'utf8'));
  const slot = slots.slots.find((x: { type: string }) => x.type === 'password');
  const code = await readFile(join(site, 'unlock', 'argon2.js'), 'utf8');
  for (let i = 0; i < Number(values.runs); i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}unlock/keys.json`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(values.rate) });
    await page.addScriptTag({ content: code });
    mainThread.push(
      await page.evaluate(
        ({ password, slot }) =>
          new Promise<number>((resolve) => {
            const w = window as unknown as { onmessage: (e: unknown) => void; postMessage: (m: unknown) => void };
            const t0 = performance.now();
            w.postMessage = () => resolve(performance.now() - t0);
            const salt = Uint8Array.from(atob(slot.salt.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
            w.onmessage({ data: { password, salt, params: { memory: slot.memory, iterations: slot.iterations, parallelism: slot.parallelism } } });
          }),
        { password, slot },
      ),
    );
    await context.close();
  }
}
await browser.close();
await server.close();
const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[Math.floor(s.length / 2)]} ms (${s[0]}–${s[s.length - 1]})`;
};
console.log(`CPU ×${values.rate}, ${values.runs} runs: password checked in ${stat(derive)}, index shown after ${stat(shown)}; Argon2id alone on the throttled main thread ${stat(mainThread.map(Math.round))}`);
